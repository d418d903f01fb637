/**
 * Canvas (`--canvas`): first render of the session tree in headless Chromium, and the
 * statements one page load costs the database.
 *
 * - The built app (`next start`, as e2e/server.ts runs it) on a free port, on the bench
 *   database, offline model, sign-in off; built in its own folder (lib/app-build.ts), only when
 *   the sources changed; `--no-build` uses that build as it is.
 * - For the imported 10-entry (baseline), 1k and 10k sessions: one untimed warm-up load each,
 *   then 3 rounds of loading /sessions/<id> for every size, each in a fresh browser context
 *   (empty cache). An init script
 *   records `performance.now()` (0 = navigation start) when the first `.react-flow__node` is
 *   visible (in the DOM, laid out, not `visibility: hidden` as React Flow keeps unmeasured nodes).
 * - Statements per page load: pg_stat_statements of the bench database, reset before one load
 *   of the 1k and of the 10k session and read once the network is idle (every request the page
 *   makes, including the client's follow-up fetches). Needs the embedded bench server (see database.ts).
 * - 100k (imported for this section too): one load, then pans (mouse drags)
 *   and zooms (wheel) on the canvas; a PerformanceObserver records every long task (> 50 ms)
 *   from navigation start, and the report gives the longest while opening and while panning
 *   and zooming (target: none over 200 ms, docs/benchmarks.md). That first open after the
 *   app started reads the session into the server's read model; three more loads, measured as
 *   the other sizes are (after a warm-up load), give the first tree node against the 10-entry
 *   session's (target ≤ 2×), with the first open's beside it.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import type { Page } from "playwright-core";
import type { Imported } from "./import";
import { nextBin, prepareApp } from "./lib/app-build";
import { type BenchDatabase, resetServerStatements, serverStatements } from "./lib/database";
import { label } from "./lib/sessions";
import { addRow, formatMs, median } from "./lib/stats";

export const CHROMIUM = "/usr/bin/chromium";

/** No model and no sign-in, whatever the developer's shell has (as e2e/server.ts does). */
export function appEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...extra };
  for (const k of ["OPENAI_API_KEY", "ANTHROPIC_API_KEY", "ARBOR_OPENAI_BASE_URL", "ARBOR_OPENAI_API_KEY", "ARBOR_OPENAI_MODELS", "ARBOR_PASSWORD"]) delete env[k];
  return env;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const a = server.address();
      server.close(() => (typeof a === "object" && a ? resolve(a.port) : reject(new Error("no port"))));
    });
  });
}

export async function startApp(appDir: string, db: BenchDatabase, dataDir: string, nodeArgs: string[] = []): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeArgs, nextBin(), "start", "--port", String(port), "--hostname", "127.0.0.1"], {
    stdio: ["ignore", "ignore", "inherit"],
    env: appEnv({ DATABASE_URL: db.url, ARBOR_DATA_DIR: dataDir, NODE_ENV: "production" }),
    cwd: appDir,
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`canvas: next start exited with ${child.exitCode}`);
    if (await fetch(`${url}/`).then((r) => r.ok, () => false)) return { url, child };
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill("SIGTERM");
  throw new Error("canvas: the app did not start");
}

/** Runs in the page before any script: the time the first tree node becomes visible. */
export const FIRST_NODE_PROBE = `(() => {
  const w = window;
  const check = () => {
    if (w.__firstNode !== undefined) return;
    const el = document.querySelector(".react-flow__node");
    if (!el) return;
    const box = el.getBoundingClientRect();
    if (box.width > 0 && getComputedStyle(el).visibility !== "hidden") w.__firstNode = performance.now();
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["style", "class"] });
  const tick = () => { check(); if (w.__firstNode === undefined) requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
})();`;

/** Runs in the page before any script: every long task (main-thread stall over 50 ms). */
export const LONG_TASK_PROBE = `(() => {
  const w = window;
  w.__longTasks = [];
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__longTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: "longtask", buffered: true });
  } catch {}
})();`;

/** The canvas bench's pans (mouse drags) and zooms (wheel) on the tree canvas. */
export async function panAndZoom(page: Page): Promise<void> {
  const pane = page.locator(".react-flow__pane");
  const box = await pane.boundingBox();
  if (box) {
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height / 2;
    for (let i = 0; i < 4; i++) {
      await page.mouse.move(cx, cy);
      await page.mouse.down();
      await page.mouse.move(cx + (i % 2 ? -300 : 300), cy + (i % 2 ? 200 : -200), { steps: 10 });
      await page.mouse.up();
      await page.mouse.wheel(0, i % 2 ? 400 : -400);
      await page.waitForTimeout(300);
    }
  }
}

type LongTask = { start: number; duration: number };

interface Load {
  firstNode: number;
  /** First byte and last byte of the HTML, DOMContentLoaded, first contentful paint (ms). */
  ttfb: number;
  htmlEnd: number;
  dcl: number;
  fcp: number;
  htmlBytes: number;
}

/**
 * `hugeOnly` (the history bench's `page` row): only the 10-entry session's loads, as the
 * baseline, and the 100k session's.
 */
export async function canvasBench(db: BenchDatabase, dir: string, imported: Imported, opts: { build: boolean; hugeOnly?: boolean }): Promise<void> {
  console.log("\ncanvas: first render of the tree in headless Chromium");
  const appDir = await prepareApp({ allowBuild: opts.build, env: appEnv() });
  const { chromium } = await import("playwright-core");
  // The browser first: a machine without one fails here, before a `next start` is left running.
  const browser = await chromium.launch({
    ...(existsSync(CHROMIUM) ? { executablePath: CHROMIUM } : {}),
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"],
  });
  const app = await startApp(appDir, db, path.join(dir, "app-data")).catch(async (error: unknown) => {
    await browser.close();
    throw error;
  });
  const load = async (sessionId: string, afterLoad?: () => Promise<void>): Promise<Load> => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    try {
      const page = await context.newPage();
      await page.addInitScript(FIRST_NODE_PROBE);
      await page.goto(`${app.url}/sessions/${encodeURIComponent(sessionId)}`, { waitUntil: "commit", timeout: 120_000 });
      await page.waitForFunction(() => (window as { __firstNode?: number }).__firstNode !== undefined, undefined, { timeout: 120_000 });
      const r = await page.evaluate(() => {
        const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
        const fcp = performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? Number.NaN;
        return {
          firstNode: (window as { __firstNode?: number }).__firstNode!,
          ttfb: nav?.responseStart ?? Number.NaN,
          htmlEnd: nav?.responseEnd ?? Number.NaN,
          dcl: nav?.domContentLoadedEventEnd ?? Number.NaN,
          fcp,
          htmlBytes: nav?.decodedBodySize ?? 0,
        };
      });
      if (afterLoad) {
        await page.waitForLoadState("networkidle");
        await afterLoad();
      }
      return r;
    } finally {
      await context.close();
    }
  };
  /** 100k entries: open, then pan and zoom, recording long tasks (docs/benchmarks.md: none over 200 ms). */
  const hugeSession = async (sessionId: string, tenEntryMs: number): Promise<number> => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    try {
      const page = await context.newPage();
      await page.addInitScript(FIRST_NODE_PROBE);
      await page.addInitScript(LONG_TASK_PROBE);
      await page.goto(`${app.url}/sessions/${encodeURIComponent(sessionId)}`, { waitUntil: "commit", timeout: 300_000 });
      await page.waitForFunction(() => (window as { __firstNode?: number }).__firstNode !== undefined, undefined, { timeout: 300_000 });
      await page.waitForLoadState("networkidle", { timeout: 300_000 });
      await page.waitForTimeout(1000);
      const opened = await page.evaluate(() => ({
        firstNode: (window as { __firstNode?: number }).__firstNode!,
        html: (performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined)?.decodedBodySize ?? 0,
        tasks: (window as unknown as { __longTasks: LongTask[] }).__longTasks.slice(),
        now: performance.now(),
      }));
      await panAndZoom(page);
      await page.waitForTimeout(500);
      const after = await page.evaluate(() => (window as unknown as { __longTasks: LongTask[] }).__longTasks.slice());
      const during = after.filter((t) => t.start >= opened.now);
      const longest = (list: LongTask[]) => list.reduce((m, t) => Math.max(m, t.duration), 0);
      const openMax = longest(opened.tasks);
      const panMax = longest(during);
      addRow({
        section: "canvas",
        name: "100k session: first tree node; longest main-thread stall opening / panning and zooming",
        n: label(100_000),
        value: formatMs(opened.firstNode),
        baseline: "no stall over 200 ms",
        ratio: Math.max(openMax, panMax) / 200,
        note: `first open after the app started: first node ${(opened.firstNode / tenEntryMs).toFixed(2)}× the 10-entry session's ${formatMs(tenEntryMs)}; HTML ${(opened.html / 2 ** 20).toFixed(1)} MB; longest long task while opening ${formatMs(openMax)} (${opened.tasks.length} over 50 ms), while panning and zooming ${formatMs(panMax)} (${during.length} over 50 ms)`,
      });
      return opened.firstNode;
    } finally {
      await context.close();
    }
  };
  try {
    const results = new Map<number, Load[]>();
    const sizes = (opts.hugeOnly ? [10] : [10, 1000, 10_000]).filter((n) => imported.has(n));
    for (const n of sizes) {
      await load(imported.get(n)!.id);
      results.set(n, []);
    }
    // Rounds over all sizes, so noise from other processes hits every size alike.
    for (let i = 0; i < 3; i++) for (const n of sizes) results.get(n)!.push(await load(imported.get(n)!.id));
    const base = results.get(10);
    const baseMs = base ? median(base.map((r) => r.firstNode)) : Number.NaN;
    for (const [n, runs] of results) {
      const ms = median(runs.map((r) => r.firstNode));
      const at = (k: keyof Load) => formatMs(median(runs.map((r) => r[k])));
      addRow({
        section: "canvas",
        name: "navigation start → first tree node visible",
        n: label(n),
        value: formatMs(ms),
        baseline: `10-entry session ${formatMs(baseMs)}`,
        ratio: ms / baseMs,
        note:
          `median of 3; HTML ${(runs[0]!.htmlBytes / 2 ** 20).toFixed(1)} MB, first byte ${at("ttfb")}, last byte ${at("htmlEnd")}, ` +
          `DOMContentLoaded ${at("dcl")}, FCP ${at("fcp")}`,
      });
    }
    for (const n of opts.hugeOnly ? [] : [1000, 10_000]) {
      const one = imported.get(n);
      if (!one || !db.statementStats) continue;
      let counted: Awaited<ReturnType<typeof serverStatements>> | undefined;
      await resetServerStatements(db);
      await load(one.id, async () => {
        counted = await serverStatements(db);
      });
      if (counted) {
        const top = counted.byQuery.slice(0, 4).map((q) => `${q.calls}× ${q.query.slice(0, 40)}…`).join("; ");
        addRow({
          section: "canvas",
          name: "statements per page load (pg_stat_statements)",
          n: label(n),
          value: String(counted.total),
          baseline: "target ≤ 4",
          ratio: counted.total / 4,
          note: top,
        });
      }
    }
    const huge = imported.get(100_000);
    if (huge) {
      // The first open reads the session into the server's read model (docs/benchmarks.md
      // "Cold open"); the ratio's method is the other sizes': a warm-up load, then loads.
      const first = await hugeSession(huge.id, baseMs);
      const again: number[] = [];
      for (let i = 0; i < 3; i++) again.push((await load(huge.id)).firstNode);
      const ms = median(again);
      addRow({
        section: "canvas",
        name: "100k session: navigation start → first tree node (the map of the path's tail)",
        n: label(100_000),
        value: formatMs(ms),
        baseline: `10-entry session ${formatMs(baseMs)}`,
        ratio: ms / baseMs,
        note: `median of 3 after the first open (target ≤ 2×); the first open after the app started ${formatMs(first)} (${(first / baseMs).toFixed(2)}×), which reads every entry into the server's read model first`,
      });
    }
  } finally {
    await browser.close();
    app.child.kill("SIGTERM");
    await new Promise((r) => (app.child.exitCode === null ? app.child.once("exit", r) : r(undefined)));
  }
}
