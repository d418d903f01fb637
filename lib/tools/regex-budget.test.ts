/**
 * One catastrophic pattern must not stall the server. grep's regular expression and
 * find's glob run in a worker terminated at the budget (regex-worker.ts): the call returns a
 * tool error within its budget, and an HTTP server in this same process keeps answering.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startRouteServer, type RouteServer } from "@/test/route-server";
import { RegexWorker } from "./regex-worker";
import { callTool, makeSandbox, put, type Sandbox } from "@/test/tools-sandbox";

let sb: Sandbox;
let server: RouteServer;
beforeAll(async () => {
  server = await startRouteServer(async () => new Response("unused"));
});
afterAll(async () => {
  await server.close();
});
beforeEach(async () => {
  sb = await makeSandbox();
});
afterEach(async () => {
  await sb.cleanup();
});

/** Pings the server every few ms while `work` runs; resolves with work's result and the pings. */
async function whilePinging<T>(work: () => Promise<T>): Promise<{ result: T; pings: number[]; ms: number }> {
  await server.ping(); // warm up the connection
  const pings: number[] = [];
  let done = false;
  const pinging = (async () => {
    while (!done) {
      pings.push(await server.ping());
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const started = performance.now();
  const result = await work();
  const ms = performance.now() - started;
  done = true;
  await pinging;
  return { result, pings, ms };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

describe("a catastrophic pattern", () => {
  it("grep (a+)+$ on a 40,000-character line: a tool error within its budget, while other requests answer under 100 ms", async () => {
    await put(sb.root, { "redos.txt": `${"a".repeat(40_000)}!\n` });
    const budget = 1500;
    const { result, pings, ms } = await whilePinging(() =>
      callTool(sb.root, "grep", { pattern: "(a+)+$", path: "redos.txt" }, { limits: { grepTimeoutMs: budget } }),
    );
    expect(result.isError).toBe(true);
    expect(result.text).toBe(
      "Search for /(a+)+$/ took longer than 1.5 s; simplify the pattern. It was stopped at its time budget, most likely because " +
        "the pattern backtracks catastrophically: avoid nested or adjacent repetition such as (a+)+, (a|a)* or .*.*, anchor it, " +
        "or search for a plain substring.",
    );
    expect(ms).toBeGreaterThanOrEqual(budget - 50);
    expect(ms).toBeLessThan(budget + 1000);
    expect(pings.length).toBeGreaterThan(5);
    // The median, not the maximum: on a shared, loaded machine one idle round trip can exceed
    // 100 ms too. A blocked event loop (the bug) would hold every ping for the whole budget.
    expect(median(pings)).toBeLessThan(100);
    expect(Math.max(...pings)).toBeLessThan(budget);
  });

  it("find with a glob of many stars on a long name is stopped the same way", async () => {
    await put(sb.root, { [`${"a".repeat(200)}.txt`]: "x" });
    const { result, ms } = await whilePinging(() =>
      callTool(sb.root, "find", { pattern: "*a*a*a*a*a*a*a*a*a*a*a*a*b" }, { limits: { grepTimeoutMs: 1000 } }),
    );
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/^Glob "\*a\*a.*" took longer than 1 s to match; simplify the pattern/);
    expect(ms).toBeLessThan(2000);
  });

  it("normal patterns still match, through the worker, as the main thread's RegExp does", async () => {
    const w = new RegexWorker({ source: "^ex(po)rt\\b", flags: "" }, 5000);
    try {
      expect(await w.matchLines("export a\r\nimport b\nexport c", 10)).toEqual([0, 2]);
      expect(await w.matchLines("export a\nexport c", 1)).toEqual([0]);
      expect(await w.testAll(["export", "exports", ""])).toEqual([true, false, false]);
    } finally {
      await w.close();
    }
  });
});
