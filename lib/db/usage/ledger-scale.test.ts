/**
 * The ledger at scale (migration 20270123000000, docs/usage.md): the Usage page's rollup and the
 * sessions' costs stay equal to the counted ledger rows through import, commit, fork, delete,
 * restore and the user's prices; a response is counted once even when two imports of the same
 * file run at once; the list pages by cost; and the user's prices apply as docs/usage.md "Prices"
 * says. Expected costs are computed here from the entries' tokens, not read from our pricing.
 */
import { describe, expect, it } from "vitest";
import { generateSession } from "@/test/generators/session";
import { generateClaudeCodeSubagent } from "@/test/generators/claude-subagent";
import { serializeSession } from "@/lib/session/file/jsonl";
import { assistantEntry, header, isoAt, userEntry } from "@/test/session-factories";
import { useTestDatabase } from "@/test/db";
import { chunked } from "@/test/import-helpers";
import { getDb } from "../client";
import { forkSession, importSession, listSessions, readLedger, removePriceOverride, restoreSession, sessionUsage, setPriceOverride, softDeleteSession, usageSeries } from "..";
import { rezoneDaily } from "./ledger-series";

useTestDatabase();

type Sums = { cost: bigint; tokens: bigint; calls: bigint };

/** Per session: counted ledger rows, the rollup and sessions.cost_micros must say the same. */
async function expectConsistent(): Promise<void> {
  const db = getDb();
  const ledger = await db.$queryRawUnsafe<(Sums & { session_id: string })[]>(
    `SELECT s.id AS session_id, COALESCE(sum(u.cost_micros), 0)::bigint AS cost, COALESCE(sum(u.input + u.output + u.cache_read + u.cache_write), 0)::bigint AS tokens,
       count(u.entry_id)::bigint AS calls
     FROM sessions s LEFT JOIN usage_rows u ON u.session_id = s.id AND u.counted GROUP BY s.id ORDER BY s.id`,
  );
  const rollup = await db.$queryRawUnsafe<(Sums & { session_id: string })[]>(
    `SELECT s.id AS session_id, COALESCE(sum(r.cost_micros), 0)::bigint AS cost, COALESCE(sum(r.input + r.output + r.cache_read + r.cache_write), 0)::bigint AS tokens,
       COALESCE(sum(r.calls), 0)::bigint AS calls
     FROM sessions s LEFT JOIN usage_rollup r ON r.session_id = s.id GROUP BY s.id ORDER BY s.id`,
  );
  const column = await db.$queryRawUnsafe<{ session_id: string; cost: bigint }[]>("SELECT id AS session_id, cost_micros AS cost FROM sessions ORDER BY id");
  expect(rollup).toEqual(ledger);
  expect(column).toEqual(ledger.map((r) => ({ session_id: r.session_id, cost: r.cost })));
  // usage_daily: the same sums per local day (its zone) and model, project or agent.
  const groups = { model: "u.model", project: "COALESCE(NULLIF(s.cwd, ''), '(no project)')", agent: "COALESCE(s.header ->> 'sourceFormat', 'pi')" };
  for (const [stack, grp] of Object.entries(groups)) {
    const byDay = `SELECT (u.at AT TIME ZONE (SELECT time_zone FROM usage_zone))::date::text AS day, ${grp} AS grp,
         sum(COALESCE(u.cost_micros, 0))::bigint AS cost, sum(u.input + u.output + u.cache_read + u.cache_write)::bigint AS tokens, count(*)::bigint AS calls
       FROM usage_rows u JOIN sessions s ON s.id = u.session_id WHERE u.counted GROUP BY 1, 2 ORDER BY 1, 2`;
    const daily = `SELECT day::text, grp, cost_micros AS cost, (input + output + cache_read + cache_write) AS tokens, calls
       FROM usage_daily WHERE stack = '${stack}' AND (calls <> 0 OR cost_micros <> 0 OR input <> 0 OR output <> 0) ORDER BY 1, 2`;
    expect(await db.$queryRawUnsafe(daily), stack).toEqual(await db.$queryRawUnsafe(byDay));
  }
}

/** A pi file of `n` assistant messages of `model` (no recorded cost), one a minute from `start`. */
function piFile(id: string, model: string, provider: string, n: number, start: string, tokens = { input: 1000, output: 200, cacheRead: 3000, cacheWrite: 0 }) {
  const t0 = Date.parse(start);
  const at = (i: number) => new Date(t0 + i * 60_000).toISOString();
  const entries = [];
  let parent: string | null = null;
  for (let i = 0; i < n; i++) {
    const u = userEntry(`u${i}`, parent, `question ${i}`, { timestamp: at(i) });
    const a = assistantEntry(`a${i}`, u.id, `answer ${i}`, { provider, model, usage: tokens, timestamp: t0 + i * 60_000 + 1000 }, { timestamp: at(i) });
    entries.push(u, a);
    parent = a.id;
  }
  return serializeSession(header({ id, timestamp: isoAt(0), cwd: `/work/${id}` }), entries);
}

const counted = async () => (await readLedger()).reduce((s, r) => s + r.input + r.output + r.cacheRead + r.cacheWrite, 0);

describe("usage ledger at scale", () => {
  it("keeps the rollup and the sessions' costs equal to the counted rows through fork, delete and restore", async () => {
    const g = generateSession({ seed: 5, entries: 200, branches: 2, compactions: true, startTime: "2025-03-09T18:00:00Z" });
    const { sessionId } = await importSession({ source: chunked(serializeSession(g.header, g.entries)), fileName: "g.jsonl" });
    await expectConsistent();
    const fork = await forkSession({ sessionId, leafId: (await getDb().session.findUniqueOrThrow({ where: { id: sessionId } })).leafId! });
    await expectConsistent();
    await softDeleteSession({ id: sessionId });
    await expectConsistent();
    expect((await sessionUsage({ sessionId: fork.sessionId })).own.calls).toBeGreaterThan(0);
    await restoreSession({ id: sessionId });
    await expectConsistent();
    await getDb().session.delete({ where: { id: fork.sessionId } });
    await expectConsistent();

    // The page's two paths (usage_daily in its zone, usage_rollup in any other) give the same sums.
    const series = (timeZone: string) =>
      Promise.all((["day", "week", "month"] as const).map((bucket) => usageSeries({ bucket, stack: "project", timeZone })));
    const utcDaily = await series("UTC");
    expect(await rezoneDaily("Asia/Kathmandu")).toBe(true);
    await expectConsistent();
    const kathmanduDaily = await series("Asia/Kathmandu");
    expect(await series("UTC")).toEqual(utcDaily);
    expect(await rezoneDaily("UTC")).toBe(true);
    expect(await series("Asia/Kathmandu")).toEqual(kathmanduDaily);
    expect(kathmanduDaily).not.toEqual(utcDaily);
  });

  it("counts a response once when two imports of the same file run at once", async () => {
    const sub = generateClaudeCodeSubagent({ seed: 11, sessionId: "p4rent", agentId: "c0ffee", prompt: "go", start: Date.UTC(2025, 2, 3, 9) });
    const pi = piFile("twice", "claude-sonnet-4-5", "anthropic", 40, "2025-03-04T10:00:00Z");
    const before = await counted();
    const runs = await Promise.all([
      importSession({ source: chunked(sub.text), fileName: "agent-c0ffee.jsonl", asCopy: true }),
      importSession({ source: chunked(sub.text), fileName: "agent-c0ffee.jsonl", asCopy: true }),
      importSession({ source: chunked(pi), fileName: "twice.jsonl", asCopy: true }),
      importSession({ source: chunked(pi), fileName: "twice.jsonl", asCopy: true }),
    ]);
    expect(new Set(runs.map((r) => r.sessionId)).size).toBe(4);
    // Independently: the Claude file's responses once each (first record), the pi file's messages once.
    const seen = new Set<string>();
    let expected = 40 * 4200;
    for (const line of sub.text.split("\n").filter(Boolean)) {
      const r = JSON.parse(line) as { type: string; requestId?: string; message?: { id?: string; usage?: Record<string, number> } };
      const u = r.message?.usage;
      if (r.type !== "assistant" || !u || seen.has(`${r.message?.id}:${r.requestId}`)) continue;
      seen.add(`${r.message?.id}:${r.requestId}`);
      expected += (u.input_tokens ?? 0) + (u.output_tokens ?? 0) + (u.cache_read_input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0);
    }
    expect(await counted()).toBe(before + expected);
    const twice = await getDb().$queryRawUnsafe<{ n: bigint }[]>("SELECT count(*) AS n FROM usage_rows WHERE counted GROUP BY dedupe_key HAVING count(*) > 1");
    expect(twice).toEqual([]);
    await expectConsistent();
  });

  it("pages the list costliest first with keyset cursors, every session once", async () => {
    for (let i = 0; i < 7; i++) {
      // i + 1 messages of 1000 input tokens at the user's price of $1 per million: (i + 1) × 1000 millionths.
      await importSession({ source: chunked(piFile(`cost${i}`, "acme-paged", "acme", i + 1, "2025-04-01T10:00:00Z", { input: 1000, output: 0, cacheRead: 0, cacheWrite: 0 })), fileName: `c${i}.jsonl` });
    }
    await setPriceOverride({ model: "acme-paged", input: 1_000_000, output: 1_000_000 });
    const ids: string[] = [];
    const costs: number[] = [];
    let cursor: string | null = null;
    do {
      const page = await listSessions({ sort: "cost", limit: 3, cursor });
      for (const s of page.sessions) {
        ids.push(s.id);
        costs.push(s.usage?.costMicros ?? 0);
      }
      cursor = page.nextCursor;
    } while (cursor);
    const all = await getDb().session.count({ where: { deletedAt: null } });
    expect(ids).toHaveLength(all);
    expect(new Set(ids).size).toBe(all);
    expect(costs).toEqual([...costs].sort((a, b) => b - a));
    const mine = ids.filter((id) => /^cost\d$/.test(id) || costs[ids.indexOf(id)]! % 1000 === 0);
    expect(mine.length).toBeGreaterThanOrEqual(7);
  });

  it("prices with the user's overrides: recorded cost wins, unknown models say so, removal restores the catalogue", async () => {
    const file = (id: string, model: string, provider: string, start = "2025-06-20T10:00:00Z") => piFile(id, model, provider, 3, start);
    const known = await importSession({ source: chunked(file("known", "gpt-4o", "openai")), fileName: "k.jsonl" });
    const unknown = await importSession({ source: chunked(file("unknown", "acme-secret-9", "acme")), fileName: "u.jsonl" });
    const g = generateSession({ seed: 8, entries: 30 });
    const recorded = await importSession({ source: chunked(serializeSession(g.header, g.entries)), fileName: "r.jsonl" });
    const own = async (sessionId: string) => (await sessionUsage({ sessionId })).own;

    // Unknown model: tokens, no price ("price unknown"), never a made-up figure.
    expect(await own(unknown.sessionId)).toMatchObject({ costMicros: 0, tokens: 3 * 4200, unpricedTokens: 3 * 4200 });
    const catalogue = (await own(known.sessionId)).costMicros;
    expect(catalogue).toBeGreaterThan(0);
    const recordedCost = (await own(recorded.sessionId)).costMicros;
    const recordedModels = [...new Set((await sessionUsage({ sessionId: recorded.sessionId })).rows.map((r) => r.model))];

    // $2 input, $10 output, $0.20 cache read per million: per message 1000×2 + 200×10 + 3000×0.2 = 4600 millionths.
    await setPriceOverride({ model: "acme-secret-9", input: 2_000_000, output: 10_000_000, cacheRead: 200_000 });
    await setPriceOverride({ model: "gpt-4o", input: 2_000_000, output: 10_000_000, cacheRead: 200_000 });
    for (const m of recordedModels) await setPriceOverride({ model: m, input: 99_000_000, output: 99_000_000 });
    expect(await own(unknown.sessionId)).toMatchObject({ costMicros: 3 * 4600, unpricedTokens: 0 });
    expect((await own(known.sessionId)).costMicros).toBe(3 * 4600);
    expect((await own(recorded.sessionId)).costMicros).toBe(recordedCost);
    // New rows are priced with the override when written.
    const later = await importSession({ source: chunked(file("later", "acme-secret-9", "acme", "2025-06-20T12:00:00Z")), fileName: "l.jsonl" });
    expect((await own(later.sessionId)).costMicros).toBe(3 * 4600);
    const day = await usageSeries({ bucket: "day", stack: "model", timeZone: "UTC", since: new Date("2025-06-20T00:00:00Z"), until: new Date("2025-06-21T00:00:00Z") });
    expect(day.find((c) => c.group === "acme-secret-9")).toMatchObject({ costMicros: 6 * 4600, unpricedTokens: 0, calls: 6 });
    await expectConsistent();

    await removePriceOverride({ model: "acme-secret-9" });
    await removePriceOverride({ model: "gpt-4o" });
    expect(await own(unknown.sessionId)).toMatchObject({ costMicros: 0, unpricedTokens: 3 * 4200 });
    expect((await own(known.sessionId)).costMicros).toBe(catalogue);
    await expectConsistent();
  });
});
