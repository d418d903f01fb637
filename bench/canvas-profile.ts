/**
 * `tsx --conditions=react-server bench/canvas-profile.ts [N]`: where the session page's time to
 * its first tree node goes, for the N-entry bench session (default 10k) next to the 10-entry one.
 * A tool for finding the cost, not a bench (docs/benchmarks.md has the method).
 *
 * - The bench build (lib/app-build.ts) under `next start`, with the server's CPU profiled
 *   (`--cpu-prof`, written to the tool's temp folder when it exits).
 * - Server: time to first byte, total and size of the page's HTML fetched 5 times per session
 *   without a browser.
 * - Browser: 3 loads per session in a fresh context with the main thread's JavaScript profiled
 *   (CDP Profiler from before navigation): navigation timings, the first node, and the top
 *   self-time functions of the N-entry session's loads up to its first node.
 */
import { mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { importSession } from "@/lib/db";
import { appEnv, CHROMIUM, FIRST_NODE_PROBE, startApp } from "./canvas";
import { prepareApp } from "./lib/app-build";
import { openBenchDatabase } from "./lib/database";
import { benchSession } from "./lib/sessions";

interface Node { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number; children?: number[] }
interface Profile { nodes: Node[]; startTime: number; endTime: number; samples: number[]; timeDeltas: number[] }

const n = Number(process.argv[2] ?? 10_000);
const dir = await mkdtemp(path.join(tmpdir(), "arbor-canvas-prof-"));
const db = await openBenchDatabase();

/** Self time per function (ms). */
function selfTimes(p: Profile): Map<string, number> {
  const byId = new Map(p.nodes.map((x) => [x.id, x]));
  const out = new Map<string, number>();
  for (let i = 0; i < p.samples.length; i++) {
    const node = byId.get(p.samples[i]!)!;
    const f = node.callFrame;
    const key = `${f.functionName || "(anon)"} ${f.url.split("/").slice(-1)[0]}:${f.lineNumber}`;
    out.set(key, (out.get(key) ?? 0) + (p.timeDeltas[i + 1] ?? 0) / 1000);
  }
  return out;
}

function top(m: Map<string, number>, k = 30): string {
  return [...m].sort((a, b) => b[1] - a[1]).slice(0, k).map(([name, ms]) => `${ms.toFixed(1).padStart(8)} ms ${name}`).join("\n");
}

try {
  const ids = new Map<number, string>();
  for (const size of [10, n]) ids.set(size, (await importSession({ source: (await benchSession(size, dir)).file })).sessionId);
  const appDir = await prepareApp({ allowBuild: true, env: appEnv() });
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu", "--no-first-run"] });
  const app = await startApp(appDir, db, path.join(dir, "app-data"), ["--cpu-prof", `--cpu-prof-dir=${dir}`]);
  try {
    for (const [size, id] of ids) {
      const url = `${app.url}/sessions/${encodeURIComponent(id)}`;
      const rows: string[] = [];
      for (let i = 0; i < 6; i++) {
        const t0 = performance.now();
        const res = await fetch(url);
        const reader = res.body!.getReader();
        let first = Number.NaN;
        let bytes = 0;
        const parts: Uint8Array[] = [];
        for (;;) {
          const { done, value } = await reader.read();
          if (Number.isNaN(first)) first = performance.now() - t0;
          if (done) break;
          bytes += value.length;
          parts.push(value);
        }
        if (i === 5) await writeFile(path.join(dir, `page-${size}.html`), Buffer.concat(parts));
        if (i > 0) rows.push(`first chunk ${first.toFixed(0)} ms, end ${(performance.now() - t0).toFixed(0)} ms, ${(bytes / 1024).toFixed(0)} KB`);
      }
      console.log(`server, ${size} entries:\n  ${rows.join("\n  ")}`);
    }
    const merged = new Map<string, number>();
    for (let round = 0; round < 4; round++) {
      for (const [size, id] of ids) {
        const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
        const page = await context.newPage();
        await page.addInitScript(FIRST_NODE_PROBE);
        const cdp = await context.newCDPSession(page);
        await cdp.send("Profiler.enable");
        await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
        await cdp.send("Profiler.start");
        await page.goto(`${app.url}/sessions/${encodeURIComponent(id)}`, { waitUntil: "commit" });
        await page.waitForFunction(() => (window as { __firstNode?: number }).__firstNode !== undefined);
        const t = await page.evaluate(() => {
          const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
          const res = performance.getEntriesByType("resource") as PerformanceResourceTiming[];
          const scripts = res.filter((r) => r.initiatorType === "script");
          return {
            firstNode: (window as { __firstNode?: number }).__firstNode!,
            ttfb: nav.responseStart,
            htmlEnd: nav.responseEnd,
            domInteractive: nav.domInteractive,
            dcl: nav.domContentLoadedEventEnd,
            lastScript: Math.max(...scripts.map((s) => s.responseEnd)),
            fcp: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? Number.NaN,
            origin: performance.timeOrigin,
          };
        });
        const { profile } = (await cdp.send("Profiler.stop")) as unknown as { profile: Profile };
        await context.close();
        const f = (x: number) => x.toFixed(0).padStart(5);
        console.log(
          `browser ${String(size).padStart(6)}: ttfb ${f(t.ttfb)} htmlEnd ${f(t.htmlEnd)} domInteractive ${f(t.domInteractive)} scripts loaded ${f(t.lastScript)} DCL ${f(t.dcl)} FCP ${f(t.fcp)} first node ${f(t.firstNode)}`,
        );
        if (round === 0) continue;
        if (size === n) {
          for (const [k, v] of selfTimes(profile)) merged.set(k, (merged.get(k) ?? 0) + v / 3);
          await writeFile(path.join(dir, `browser-${size}-${round}.cpuprofile`), JSON.stringify(profile));
        }
      }
    }
    console.log(`\nbrowser, ${n} entries, self time per load (mean of 3, navigation to just after the first node):\n${top(merged)}`);
  } finally {
    await browser.close();
    app.child.kill("SIGINT");
    await new Promise((r) => (app.child.exitCode === null ? app.child.once("exit", r) : r(undefined)));
  }
  const server = (await readdir(dir)).filter((f) => f.startsWith("CPU."));
  for (const f of server) {
    const p = JSON.parse(await readFile(path.join(dir, f), "utf8")) as Profile;
    console.log(`\nserver profile ${path.join(dir, f)} (${((p.endTime - p.startTime) / 1e6).toFixed(1)} s):\n${top(selfTimes(p), 40)}`);
  }
} finally {
  await db.close();
}
process.exit(0);
