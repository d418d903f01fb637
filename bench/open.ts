/**
 * Opening and appending, against PostgreSQL (lib/db/store/read.ts, lib/db/store/commit.ts).
 *
 * - Open: `loadPath` (one recursive CTE) + buildSessionContext, the context a turn starts from,
 *   against buildSessionContext on the same entries already in memory, rounds interleaved. The page's own reads
 *   (`findSessionMeta` + `loadEntries`, what app/sessions/[id]/page.tsx awaits) are timed
 *   against JSON.parse of every entry, and their statements counted (every `pg` query of this
 *   process; bench/lib/database.ts).
 * - Read model (lib/db/read-model): `readSession` + the tree's buildContext with a warm cache
 *   (1 statement: the version check) and a cold one (cache cleared before each round), against
 *   the same in-memory baseline; the cold read's two floors (the entries' JSON text leaving the
 *   server, parsed by nothing; JSON.parse of every entry, read from nowhere) against the same
 *   baseline; the agent's own working tree (`fork`) is timed too; and what a
 *   100k-entry session costs in the cache (live heap after GC, in a child process:
 *   bench/read-model-child.ts) against its JSONL size.
 * - Append: `commitEntries` of one user message at 100 vs 100k entries, the two sessions
 *   interleaved so machine noise hits both alike; must stay flat (ratio ≈ 1).
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { commitEntries, findSessionMeta, loadEntries, loadPath, readSession } from "@/lib/db";
import { configureReadModel } from "@/lib/db/read-model";
import { buildSessionContext } from "@/lib/session/context";
import type { SessionEntry } from "@/lib/session/types";
import type { Imported } from "./import";
import { runChild } from "./lib/child";
import { statementCounter } from "./lib/database";
import { label } from "./lib/sessions";
import { addRow, calibrate, formatMs, median, sampleSync } from "./lib/stats";

async function countStatements(fn: () => Promise<unknown>): Promise<{ total: number; kinds: string }> {
  statementCounter.reset();
  await fn();
  return { total: statementCounter.total, kinds: statementCounter.describe() };
}

/** Median of `repeat` interleaved rounds of an async DB call and its in-memory baseline. */
async function interleaved(db: () => Promise<unknown>, mem: () => unknown, repeat: number): Promise<{ db: number; mem: number }> {
  await db();
  const inner = calibrate(mem);
  const dbRuns: number[] = [];
  const memRuns: number[] = [];
  for (let r = 0; r < repeat; r++) {
    const t = performance.now();
    await db();
    dbRuns.push(performance.now() - t);
    memRuns.push(sampleSync(mem, inner));
  }
  return { db: median(dbRuns), mem: median(memRuns) };
}

const memoryScript = path.join(path.dirname(fileURLToPath(import.meta.url)), "read-model-child.ts");

function memoryChild(
  url: string,
  sessionId: string,
): Promise<{ heapGrowth: number; estimated: number; json: number; heapWithPage: number; estimatedWithPage: number }> {
  return runChild(memoryScript, [url, sessionId]);
}

let rawClient: pg.Client | undefined;

/** One connection of its own, kept for the section (ended at its end). */
async function rawConnection(url: string): Promise<pg.Client> {
  if (!rawClient) {
    rawClient = new pg.Client({ connectionString: url });
    await rawClient.connect();
  }
  return rawClient;
}

/** The session's entries' JSON text as the server sends it. */
async function rawEntryTexts(url: string, sessionId: string): Promise<number> {
  const r = await (await rawConnection(url)).query<{ json: string }>(
    "SELECT data::text AS json FROM entries WHERE session_id = $1 ORDER BY seq",
    [sessionId],
  );
  return r.rows.length;
}

/**
 * The server's own time to produce every entry's JSON text, in no order (the cheapest form),
 * rendered as it would be sent: EXPLAIN ANALYZE's execution time with SERIALIZE (PostgreSQL 17+),
 * per-node timing off. Median of `repeat`; what no client, however fast, can get below.
 */
async function serverTextTime(url: string, sessionId: string, repeat: number): Promise<number> {
  const client = await rawConnection(url);
  const times: number[] = [];
  for (let i = 0; i < repeat; i++) {
    const r = await client.query<{ "QUERY PLAN": string }>(
      "EXPLAIN (ANALYZE, SERIALIZE TEXT, TIMING OFF) SELECT data::text FROM entries WHERE session_id = $1",
      [sessionId],
    );
    const line = r.rows.map((x) => x["QUERY PLAN"]).find((l) => l.startsWith("Execution Time"));
    times.push(Number(line?.match(/[\d.]+/)?.[0] ?? NaN));
  }
  return median(times);
}

export async function openBench(imported: Imported, dbUrl?: string): Promise<void> {
  console.log("\nopen: loadPath + buildSessionContext from PostgreSQL vs the engine from memory");
  for (const n of [1000, 10_000, 100_000]) {
    const s = imported.get(n);
    if (!s) continue;
    const sessionId = s.id;
    const repeat = n >= 100_000 ? 3 : 7;
    /** Every entry parsed from its line: the in-memory baselines' input, and itself a baseline. */
    const parseAll = () => s.session.lines.map((l) => JSON.parse(l) as SessionEntry);
    const entries = parseAll();
    /** A row timed against buildSessionContext on the same entries in memory. */
    const vsEngine = (name: string, ms: number, engineMs: number, note: string) =>
      addRow({
        section: "open",
        name,
        n: label(n),
        value: formatMs(ms),
        baseline: `buildSessionContext in memory ${formatMs(engineMs)}`,
        ratio: ms / engineMs,
        note,
      });
    const open = async () => buildSessionContext(await loadPath({ sessionId }));
    const ctx = await interleaved(open, () => buildSessionContext(entries), repeat);
    const q = await countStatements(open);
    vsEngine("loadPath + buildSessionContext", ctx.db, ctx.mem, `${q.total} statement`);

    // A view's context is built from the tree (the id index is already there), like a turn does.
    const warm = async () => (await readSession({ sessionId })).tree.buildContext();
    const warmTimes = await interleaved(warm, () => buildSessionContext(entries), repeat);
    const wq = await countStatements(warm);
    vsEngine("readSession + buildContext, warm cache", warmTimes.db, warmTimes.mem, `${wq.total} statement`);
    const cold = async () => {
      configureReadModel({ clear: true });
      return (await readSession({ sessionId })).tree.buildContext();
    };
    const coldTimes = await interleaved(cold, () => buildSessionContext(entries), repeat);
    const cq = await countStatements(cold);
    // Any cold read that hands the engine parsed entries parses every entry's JSON at least
    // once: that alone, against the same baseline, is the client's floor of the cold ratio.
    const parseTimes = await interleaved(async () => parseAll(), () => buildSessionContext(entries), repeat);
    vsEngine(
      "readSession + buildContext, cold cache",
      coldTimes.db,
      coldTimes.mem,
      `${cq.total} statements: ${cq.kinds}; ${(coldTimes.db / parseTimes.db).toFixed(2)}× JSON.parse of every entry`,
    );
    vsEngine(
      "cold floor: JSON.parse of every entry, nothing read",
      parseTimes.db,
      parseTimes.mem,
      "what any cold read that returns parsed entries does at least once, in this process",
    );
    // The floor of any cold read whose context carries the messages: the entries' JSON text
    // leaving PostgreSQL, parsed by nothing (one statement on one connection of the same pool).
    const transfer = async () => (dbUrl ? rawEntryTexts(dbUrl, sessionId) : 0);
    const floorTimes = await interleaved(transfer, () => buildSessionContext(entries), repeat);
    vsEngine(
      "cold floor: the entries' JSON text from PostgreSQL, not parsed",
      floorTimes.db,
      floorTimes.mem,
      "1 statement; what a cold read costs before any JSON.parse (the ≤ 10× target sits below it when the context is the whole branch)",
    );
    if (dbUrl) {
      const serverMs = await serverTextTime(dbUrl, sessionId, repeat);
      vsEngine(
        "cold floor: the server's own time to produce that text (EXPLAIN ANALYZE, SERIALIZE)",
        serverMs,
        floorTimes.mem,
        "in no order; before a byte reaches this process",
      );
    }
    const view = await readSession({ sessionId });
    const forkTimes = await interleaved(async () => view.tree.fork(), () => buildSessionContext(entries), repeat);
    vsEngine(
      "the agent's working tree (SessionTree.fork of the view)",
      forkTimes.db,
      forkTimes.mem,
      "its index layered over the shared one (O(1)); its own list of the entry references (O(n) pointer copy)",
    );
    if (n >= 100_000 && dbUrl) {
      const m = await memoryChild(dbUrl, sessionId);
      const file = s.session.lines.reduce((sum, l) => sum + l.length + 1, 0);
      const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
      /** A heap figure against the JSONL's size, with the cache's own estimate of it. */
      const heapRow = (name: string, heap: number, estimated: number, where: string) =>
        addRow({
          section: "open",
          name,
          n: label(n),
          value: mb(heap),
          baseline: `JSONL ${mb(file)}`,
          ratio: heap / file,
          note: `${where}; the cache's own estimate ${mb(estimated)} (${(estimated / heap).toFixed(2)}× the heap)`,
        });
      heapRow("read model: live heap of one cached session (after GC)", m.heapGrowth, m.estimated, "child process");
      heapRow(
        "read model + the session page's derived data (its skeleton table), live heap",
        m.heapWithPage,
        m.estimatedWithPage,
        "same child after the skeleton stream",
      );
    }

    const page = async () => {
      const meta = await findSessionMeta({ id: sessionId });
      return { meta, entries: await loadEntries({ sessionId }) };
    };
    const pageTimes = await interleaved(page, parseAll, repeat);
    const pq = await countStatements(page);
    addRow({
      section: "open",
      name: "page data: findSessionMeta + loadEntries",
      n: label(n),
      value: formatMs(pageTimes.db),
      baseline: `JSON.parse of all entries ${formatMs(pageTimes.mem)}`,
      ratio: pageTimes.db / pageTimes.mem,
      note: `${pq.total} statements: ${pq.kinds}`,
    });
  }
  await rawClient?.end();
  rawClient = undefined;
}

function userEntry(parentId: string | null, i: number): SessionEntry {
  const now = Date.now();
  return {
    type: "message",
    id: crypto.randomUUID(),
    parentId,
    timestamp: new Date(now).toISOString(),
    message: { role: "user", content: `benchmark append ${i}: please keep going`, timestamp: now },
  } as SessionEntry;
}

export async function appendBench(imported: Imported): Promise<void> {
  console.log("\nappend: commitEntries of one entry at 100 vs 100k entries");
  const small = imported.get(100);
  const big = imported.get(100_000);
  if (!small || !big) return;
  const targets = [small, big];
  const leaves = new Map<string, string | null>();
  for (const t of targets) leaves.set(t.id, (await findSessionMeta({ id: t.id }))?.leafId ?? null);
  let i = 0;
  const append = async (sessionId: string) => {
    const entry = userEntry(leaves.get(sessionId) ?? null, i++);
    await commitEntries({ sessionId, expectedLeafId: leaves.get(sessionId) ?? null, entries: [entry] });
    leaves.set(sessionId, entry.id);
  };
  const times = new Map<string, number[]>(targets.map((t) => [t.id, []]));
  for (let round = 0; round < 25; round++) {
    for (const t of round % 2 ? [...targets].reverse() : targets) {
      const start = performance.now();
      await append(t.id);
      if (round >= 4) times.get(t.id)!.push(performance.now() - start);
    }
  }
  const q = await countStatements(() => append(big.id));
  const a = median(times.get(small.id)!);
  const b = median(times.get(big.id)!);
  addRow({
    section: "append",
    name: "commitEntries (1 entry)",
    n: `${label(big.session.n)} vs ${label(small.session.n)}`,
    value: formatMs(b),
    baseline: `at ${label(small.session.n)} entries ${formatMs(a)}`,
    ratio: b / a,
    note: `median of 21; ${q.total} statements: ${q.kinds}`,
  });
}
