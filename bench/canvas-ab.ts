/**
 * `tsx --conditions=react-server bench/canvas-ab.ts DIR_A DIR_B [rounds]`: the first tree node of
 * the 10-entry and 10k-entry bench sessions on two builds of the app (folders prepared by
 * lib/app-build.ts, e.g. with different TMPDIRs), both served at once on one database, loads
 * interleaved A/B and 10/10k in every round (the order alternating), so load from other
 * processes hits both builds alike. A tool for comparing a change, not a bench.
 */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { importSession } from "@/lib/db";
import { CHROMIUM, FIRST_NODE_PROBE } from "./canvas";
import { openBenchDatabase } from "./lib/database";
import { startBuild } from "./lib/served-build";
import { benchSession } from "./lib/sessions";
import { median } from "./lib/stats";

const [dirA, dirB] = [process.argv[2]!, process.argv[3]!];
const rounds = Number(process.argv[4] ?? 8);
const dir = await mkdtemp(path.join(tmpdir(), "arbor-canvas-ab-"));
const db = await openBenchDatabase();

const start = (appDir: string, port: number) => startBuild(appDir, port, { databaseUrl: db.url, dataDir: dir });

try {
  const ids = new Map<number, string>();
  for (const size of [10, 10_000]) ids.set(size, (await importSession({ source: (await benchSession(size, dir)).file })).sessionId);
  const apps = { A: await start(dirA, 3461), B: await start(dirB, 3462) };
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"] });
  const results = new Map<string, { firstNode: number; ttfb: number; dcl: number }[]>();
  try {
    const load = async (url: string) => {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      try {
        const page = await context.newPage();
        await page.addInitScript(FIRST_NODE_PROBE);
        await page.goto(url, { waitUntil: "commit", timeout: 120_000 });
        await page.waitForFunction(() => (window as { __firstNode?: number }).__firstNode !== undefined, undefined, { timeout: 120_000 });
        return await page.evaluate(() => {
          const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
          return { firstNode: (window as { __firstNode?: number }).__firstNode!, ttfb: nav.responseStart, dcl: nav.domContentLoadedEventEnd };
        });
      } finally {
        await context.close();
      }
    };
    const order: [keyof typeof apps, number][] = [];
    for (const a of ["A", "B"] as const) for (const n of [10, 10_000]) order.push([a, n]);
    for (const [a, n] of order) await load(`${apps[a].url}/sessions/${ids.get(n)}`);
    for (let r = 0; r < rounds; r++) {
      const list = r % 2 ? order.slice().reverse() : order;
      for (const [a, n] of list) {
        const key = `${a} ${n}`;
        const x = await load(`${apps[a].url}/sessions/${ids.get(n)}`);
        results.set(key, [...(results.get(key) ?? []), x]);
      }
    }
  } finally {
    await browser.close();
    for (const app of Object.values(apps)) app.child.kill("SIGTERM");
  }
  for (const a of ["A", "B"]) {
    const m = (n: number, k: "firstNode" | "ttfb" | "dcl") => median(results.get(`${a} ${n}`)!.map((x) => x[k]));
    console.log(
      `${a}: first node 10 ${m(10, "firstNode").toFixed(0)} ms, 10k ${m(10_000, "firstNode").toFixed(0)} ms, ratio ${(m(10_000, "firstNode") / m(10, "firstNode")).toFixed(2)}× — ttfb ${m(10, "ttfb").toFixed(0)} / ${m(10_000, "ttfb").toFixed(0)}, DCL ${m(10, "dcl").toFixed(0)} / ${m(10_000, "dcl").toFixed(0)}`,
    );
    console.log(`   10k first nodes: ${results.get(`${a} 10000`)!.map((x) => x.firstNode.toFixed(0)).join(" ")}`);
    console.log(`   10  first nodes: ${results.get(`${a} 10`)!.map((x) => x.firstNode.toFixed(0)).join(" ")}`);
  }
} finally {
  await db.close();
}
process.exit(0);
