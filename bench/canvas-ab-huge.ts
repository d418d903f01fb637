/**
 * `tsx --conditions=react-server bench/canvas-ab-huge.ts DIR_A DIR_B [rounds]`: the 100k bench
 * session on two prepared builds served at once (as canvas-ab.ts): open, then the canvas
 * bench's pans and zooms, alternating A and B; the longest main-thread task while opening and
 * while panning and zooming, per load. A tool for checking a change against the 200 ms bound.
 */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { importSession } from "@/lib/db";
import { CHROMIUM, FIRST_NODE_PROBE, LONG_TASK_PROBE, panAndZoom } from "./canvas";
import { openBenchDatabase } from "./lib/database";
import { startBuild } from "./lib/served-build";
import { benchSession } from "./lib/sessions";

const [dirA, dirB] = [process.argv[2]!, process.argv[3]!];
const rounds = Number(process.argv[4] ?? 3);
const dir = await mkdtemp(path.join(tmpdir(), "arbor-canvas-ab-huge-"));
const db = await openBenchDatabase();

const start = (appDir: string, port: number) => startBuild(appDir, port, { databaseUrl: db.url, dataDir: dir });

type LongTask = { start: number; duration: number };
try {
  const id = (await importSession({ source: (await benchSession(100_000, dir)).file })).sessionId;
  const apps = { A: await start(dirA, 3463), B: await start(dirB, 3464) };
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"] });
  try {
    for (let r = 0; r < rounds; r++) {
      for (const a of r % 2 ? (["B", "A"] as const) : (["A", "B"] as const)) {
        const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
        const page = await context.newPage();
        await page.addInitScript(FIRST_NODE_PROBE);
        await page.addInitScript(LONG_TASK_PROBE);
        await page.goto(`${apps[a].url}/sessions/${id}`, { waitUntil: "commit", timeout: 300_000 });
        await page.waitForFunction(() => (window as { __firstNode?: number }).__firstNode !== undefined, undefined, { timeout: 300_000 });
        await page.waitForLoadState("networkidle", { timeout: 300_000 });
        await page.waitForTimeout(1000);
        const opened = await page.evaluate(() => ({ tasks: (window as unknown as { __longTasks: LongTask[] }).__longTasks.slice(), now: performance.now(), firstNode: (window as { __firstNode?: number }).__firstNode! }));
        await panAndZoom(page);
        await page.waitForTimeout(500);
        const after = await page.evaluate(() => (window as unknown as { __longTasks: LongTask[] }).__longTasks.slice());
        const longest = (l: LongTask[]) => l.reduce((m, t) => Math.max(m, t.duration), 0);
        const during = after.filter((t) => t.start >= opened.now);
        console.log(`${a}: first node ${opened.firstNode.toFixed(0)} ms; longest opening ${longest(opened.tasks).toFixed(0)} ms (${opened.tasks.length}), panning ${longest(during).toFixed(0)} ms (${during.length}): ${during.map((t) => t.duration.toFixed(0)).join(" ")}`);
        await context.close();
      }
    }
  } finally {
    await browser.close();
    for (const app of Object.values(apps)) app.child.kill("SIGTERM");
  }
} finally {
  await db.close();
}
process.exit(0);
