/**
 * `tsx --conditions=react-server bench/canvas-trace.ts APP_DIR [N]`: the renderer main thread's
 * timeline (Chromium trace) of loading the 10-entry and the N-entry bench session up to the
 * first tree node, on a prepared build: every task over 4 ms, from navigation start. A tool.
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { spawn } from "node:child_process";
import { importSession } from "@/lib/db";
import { appEnv, CHROMIUM, FIRST_NODE_PROBE } from "./canvas";
import { openBenchDatabase } from "./lib/database";
import { benchSession } from "./lib/sessions";

const appDir = process.argv[2]!;
const n = Number(process.argv[3] ?? 10_000);
const dir = await mkdtemp(path.join(tmpdir(), "arbor-canvas-trace-"));
const db = await openBenchDatabase();

interface Ev { name: string; ph: string; ts: number; dur?: number; pid: number; tid: number; args?: { data?: Record<string, unknown>; name?: string } }

try {
  const ids = new Map<number, string>();
  for (const size of [10, n]) ids.set(size, (await importSession({ source: (await benchSession(size, dir)).file })).sessionId);
  const port = 3471;
  const child = spawn(process.execPath, [path.join(appDir, "node_modules/next/dist/bin/next"), "start", "--port", String(port), "--hostname", "127.0.0.1"], {
    stdio: ["ignore", "ignore", "inherit"],
    env: appEnv({ DATABASE_URL: db.url, ARBOR_DATA_DIR: path.join(dir, "data"), NODE_ENV: "production" }),
    cwd: appDir,
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300 && !(await fetch(`${url}/`).then((r) => r.ok, () => false)); i++) await new Promise((r) => setTimeout(r, 200));
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu", "--no-first-run"] });
  try {
    for (const round of [0, 1, 2]) {
      for (const [size, id] of ids) {
        const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
        const page = await context.newPage();
        await page.addInitScript(FIRST_NODE_PROBE);
        if (round > 0) await browser.startTracing(page, { categories: ["devtools.timeline", "disabled-by-default-devtools.timeline", "blink.user_timing", "loading", "v8.execute", "v8", "disabled-by-default-v8.gc"] });
        await page.goto(`${url}/sessions/${encodeURIComponent(id)}`, { waitUntil: "commit", timeout: 300_000 });
        await page.waitForFunction(() => (window as { __firstNode?: number }).__firstNode !== undefined, undefined, { timeout: 300_000 });
        if (size >= 100_000) {
          await page.waitForLoadState("networkidle", { timeout: 300_000 });
          await page.waitForTimeout(1000);
        }
        const firstNode = await page.evaluate(() => (window as { __firstNode?: number }).__firstNode!);
        if (round === 0) {
          await context.close();
          continue;
        }
        const buf = await browser.stopTracing();
        await context.close();
        const file = path.join(dir, `trace-${size}-${round}.json`);
        await writeFile(file, buf);
        const events = (JSON.parse(buf.toString()) as { traceEvents: Ev[] }).traceEvents;
        const nav = events.find((e) => e.name === "navigationStart" && e.args?.data && (e.args.data as { isLoadingMainFrame?: boolean }).isLoadingMainFrame);
        const main = events.find((e) => e.name === "thread_name" && e.args?.name === "CrRendererMain" && e.pid === nav?.pid);
        if (!nav || !main) {
          console.log("no navigationStart / main thread in trace", file);
          continue;
        }
        const t0 = nav.ts;
        const top = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === "X" && (e.name === "RunTask" || e.name === "ThreadControllerImpl::RunTask") && (e.dur ?? 0) > (size >= 100_000 ? 100_000 : 50_000));
        console.log(`\n${size} entries, round ${round}: first node ${firstNode.toFixed(0)} ms (${file})`);
        for (const t of top) {
          const sums = new Map<string, number>();
          for (const e of events) {
            if (e.pid !== main.pid || e.tid !== main.tid || e.ph !== "X" || e === t || e.ts < t.ts || e.ts >= t.ts + (t.dur ?? 0) || e.name === "RunTask") continue;
            const d = e.args?.data as { url?: string; functionName?: string; type?: string } | undefined;
            const what = d?.functionName || d?.type || (d?.url ? d.url.split("/").at(-1) : "");
            const key = `${e.name}${what ? `(${what})` : ""}`;
            sums.set(key, (sums.get(key) ?? 0) + (e.dur ?? 0) / 1000);
          }
          const inner = [...sums].sort((a, b) => b[1] - a[1]).slice(0, 10).map(([k, v]) => `${k} ${v.toFixed(0)}`);
          console.log(`  ${((t.ts - t0) / 1000).toFixed(0).padStart(5)} +${((t.dur ?? 0) / 1000).toFixed(0).padStart(4)} ms  ${inner.join(", ")}`);
        }
      }
    }
  } finally {
    await browser.close();
    child.kill("SIGTERM");
  }
} finally {
  await db.close();
}
process.exit(0);
