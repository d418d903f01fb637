/**
 * The usage ledger in the database (docs/usage.md "The ledger in the database"): written with
 * import, commit and fork; counted once per response; exact across delete and restore.
 * Expected figures come from the generated files, parsed here independently of lib/usage.
 */
import { describe, expect, it } from "vitest";
import { generateSession } from "@/test/generators/session";
import { generateClaudeCodeSubagent } from "@/test/generators/claude-subagent";
import { serializeSession } from "@/lib/session/file/jsonl";
import { branchCosts } from "@/lib/usage/branches";
import { useTestDatabase } from "@/test/db";
import { chunked } from "@/test/import-helpers";
import { countStatements } from "@/test/statements";
import { cellsCsv } from "@/lib/usage/series";
import { getDb } from "../client";
import { backfillLedger, commitEntries, forkSession, listSessions, usageSeries, getSessionMeta, importSession, loadEntries, readLedger, restoreSession, sessionUsage, softDeleteSession } from "..";

useTestDatabase();

type Loose = Record<string, unknown>;
const num = (v: unknown) => (typeof v === "number" ? v : 0);

/** Tokens of every assistant usage, compaction and branch summary usage in pi-shaped entries. */
function piTokens(entries: readonly Loose[]): number {
  let sum = 0;
  for (const e of entries) {
    const message = e.message as Loose | undefined;
    const usage = (e.type === "message" && message?.role === "assistant" ? message.usage : e.usage) as Loose | undefined;
    if (usage) sum += num(usage.input) + num(usage.output) + num(usage.cacheRead) + num(usage.cacheWrite);
  }
  return sum;
}

/** Tokens of a Claude Code file: each (message id, request id) once, its first record's usage. */
function claudeTokens(text: string): number {
  const seen = new Set<string>();
  let sum = 0;
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    const r = JSON.parse(line) as Loose;
    const m = r.message as Loose | undefined;
    const u = m?.usage as Loose | undefined;
    if (r.type !== "assistant" || !u) continue;
    const key = `${m?.id}:${r.requestId}`;
    if (seen.has(key)) continue;
    seen.add(key);
    sum += num(u.input_tokens) + num(u.output_tokens) + num(u.cache_read_input_tokens) + num(u.cache_creation_input_tokens);
  }
  return sum;
}

const ledgerTokens = async () => (await readLedger()).reduce((s, r) => s + r.input + r.output + r.cacheRead + r.cacheWrite, 0);
const summaryUsage = (n: number) => ({ input: 1000 * n, output: 100 * n, cacheRead: 0, cacheWrite: 0, totalTokens: 1100 * n, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0.01 * n } });

describe("usage ledger", () => {
  it("sums a session with branches, compactions, a fork and a subagent exactly, across delete and restore", async () => {
    const generated = generateSession({ seed: 31, entries: 240, branches: 3, compactions: true });
    const imported = await importSession({ source: chunked(serializeSession(generated.header, generated.entries)), fileName: "gen.jsonl" });
    const id = imported.sessionId;
    let expected = piTokens(generated.entries as unknown as Loose[]);
    expect(expected).toBeGreaterThan(0);
    expect(await ledgerTokens()).toBe(expected);

    // A compaction and a branch summary that record their summary call (Arbor and pi ≥ 0.84 do).
    const meta = await getSessionMeta({ id });
    const entries = await loadEntries({ sessionId: id });
    const leaf = meta.leafId!;
    const compaction = {
      type: "compaction", id: "c0mpact1", parentId: leaf, timestamp: "2025-01-16T10:00:00.000Z", summary: "s", firstKeptEntryId: leaf,
      tokensBefore: 5000, provider: "anthropic", model: "claude-sonnet-4-5", usage: summaryUsage(1),
    };
    const summary = {
      type: "branch_summary", id: "b5ummary", parentId: entries[0]!.id, timestamp: "2025-01-16T10:01:00.000Z", fromId: entries[0]!.id,
      summary: "t", provider: "anthropic", model: "claude-sonnet-4-5", usage: summaryUsage(2),
    };
    // An append: one statement (the commit's), no scan of the session's rows.
    const appended = await countStatements(() =>
      commitEntries({ sessionId: id, expectedLeafId: leaf, entries: [compaction, summary] as never, newLeafId: "b5ummary" }),
    );
    expect(appended.statements).toBe(1);
    expected += 1100 * 3;
    expect(await ledgerTokens()).toBe(expected);

    // Branches: every call falls in one branch segment; the segments add up to the session.
    const usage = await sessionUsage({ sessionId: id });
    expect(usage.own.tokens).toBe(expected);
    expect(usage.own.costMicros).toBeGreaterThan(0);
    const tree = await loadEntries({ sessionId: id });
    const branches = branchCosts(
      tree.map((e) => ({ id: e.id, parentId: e.parentId })),
      usage.rows.map((r) => ({ entryId: r.entryId, costMicros: r.recordedCostMicros, tokens: r.input + r.output + r.cacheRead + r.cacheWrite })),
    );
    expect(branches.length).toBeGreaterThanOrEqual(4);
    expect(branches.reduce((s, b) => s + b.tokens, 0)).toBe(usage.own.tokens);
    expect(branches.reduce((s, b) => s + b.costMicros, 0)).toBe(usage.own.costMicros);
    const summaryBranch = branches.find((b) => b.startId === "b5ummary");
    expect(summaryBranch).toMatchObject({ tokens: 2200, costMicros: 20_000, calls: 1 });

    // A fork copies the path: the copies count nowhere while the source lives.
    const fork = await forkSession({ sessionId: id, leafId: leaf });
    expect(await ledgerTokens()).toBe(expected);
    expect((await sessionUsage({ sessionId: fork.sessionId })).own.calls).toBe(0);
    const pathTokens = piTokens((await loadEntries({ sessionId: fork.sessionId })) as unknown as Loose[]);
    expect(pathTokens).toBeGreaterThan(0);

    // Deleting the source: the fork's copies count instead; the rest counts nowhere.
    await softDeleteSession({ id });
    expect(await ledgerTokens()).toBe(pathTokens);
    expect((await sessionUsage({ sessionId: fork.sessionId })).own.tokens).toBe(pathTokens);
    await restoreSession({ id });
    expect(await ledgerTokens()).toBe(expected);
    expect((await sessionUsage({ sessionId: id })).own.tokens + (await sessionUsage({ sessionId: fork.sessionId })).own.tokens).toBe(expected);

    // A subagent (a Claude Code sidechain file of this session) rolls up into the parent.
    const sub = generateClaudeCodeSubagent({ seed: 7, sessionId: id, agentId: "a1b2c3", prompt: "look around", start: Date.UTC(2025, 0, 15, 10) });
    await importSession({ source: chunked(sub.text), fileName: "agent-a1b2c3.jsonl" });
    const subTokens = claudeTokens(sub.text);
    expect(subTokens).toBeGreaterThan(0);
    const withSub = await sessionUsage({ sessionId: id });
    expect(withSub.subagents).toMatchObject({ sessions: 1, tokens: subTokens });
    expect(await ledgerTokens()).toBe(expected + subTokens);

    // The session list carries each session's cost.
    const listed = (await listSessions({ limit: 50 })).sessions.find((x) => x.id === id);
    expect(listed?.usage).toEqual({ costMicros: withSub.own.costMicros, tokens: withSub.own.tokens, unpricedTokens: 0 });
    expect(withSub.own.costMicros).toBeGreaterThan(0);

    // The same Claude responses imported again (a copy): counted once.
    await importSession({ source: chunked(sub.text), fileName: "agent-a1b2c3.jsonl", asCopy: true });
    expect(await ledgerTokens()).toBe(expected + subTokens);
  });

  it("sums the Usage page's periods by model and project in the database, and the CSV carries them exactly", async () => {
    const alpha = generateSession({ seed: 77, entries: 150, startTime: "2025-05-30T12:00:00Z", cwd: "/work/alpha" });
    const beta = generateSession({ seed: 78, entries: 90, startTime: "2025-06-02T08:00:00Z", cwd: "/work/beta" });
    for (const g of [alpha, beta]) await importSession({ source: chunked(serializeSession(g.header, g.entries)), fileName: "s.jsonl" });
    // Independently: tokens and recorded cost per UTC day and model, from the generated entries.
    const expected = new Map<string, { tokens: number; cost: number }>();
    for (const e of [...alpha.entries, ...beta.entries] as unknown as Loose[]) {
      const m = e.message as Loose | undefined;
      if (e.type !== "message" || m?.role !== "assistant") continue;
      const u = m.usage as Loose;
      const tokens = num(u.input) + num(u.output) + num(u.cacheRead) + num(u.cacheWrite);
      if (tokens === 0) continue;
      const key = `${String(e.timestamp).slice(0, 10)}|${m.model}`;
      const v = expected.get(key) ?? { tokens: 0, cost: 0 };
      v.tokens += tokens;
      v.cost += Math.round(num((u.cost as Loose).total) * 1e6);
      expected.set(key, v);
    }
    const cells = await usageSeries({ bucket: "day", stack: "model", timeZone: "UTC", since: new Date("2025-05-01T00:00:00Z") });
    const got = new Map(cells.map((c) => [`${c.period}|${c.group}`, { tokens: c.input + c.output + c.cacheRead + c.cacheWrite, cost: c.costMicros }]));
    expect(got).toEqual(expected);
    expect(new Set(cells.map((c) => c.period)).size).toBeGreaterThan(1);

    const byProject = await usageSeries({ bucket: "month", stack: "project", timeZone: "UTC", since: new Date("2025-05-31T00:00:00Z") });
    expect(new Set(byProject.map((c) => c.group))).toEqual(new Set(["/work/beta"]));
    expect(byProject.map((c) => c.period)).toEqual(["2025-06-01"]);
    const since = [...expected].filter(([k]) => k >= "2025-05-31").reduce((s, [, v]) => s + v.tokens, 0);
    expect(byProject.reduce((s, c) => s + c.input + c.output + c.cacheRead + c.cacheWrite, 0)).toBe(since);

    const csv = cellsCsv(cells, "model").trimEnd().split("\r\n");
    expect(csv[0]).toBe("period,model,cost_usd,unpriced_tokens,input,output,cache_read,cache_write,total_tokens,calls");
    expect(csv).toHaveLength(cells.length + 1);
    const first = csv[1]!.split(",");
    expect(Math.round(Number(first[2]) * 1e6)).toBe(cells[0]!.costMicros);
    expect(Number(first[8])).toBe(expected.get(`${first[0]}|${first[1]}`)!.tokens);
  });

  it("fills the ledger of sessions stored before it existed, once", async () => {
    const before = await ledgerTokens();
    const g = generateSession({ seed: 91, entries: 70, startTime: "2024-02-02T10:00:00Z" });
    const { sessionId } = await importSession({ source: chunked(serializeSession(g.header, g.entries)), fileName: "old.jsonl" });
    // As a database migrated from before the ledger: the session has no rows.
    await getDb().$executeRawUnsafe("DELETE FROM usage_rows WHERE session_id = $1", sessionId);
    expect(await ledgerTokens()).toBe(before);
    expect(await backfillLedger()).toBe(1);
    expect(await ledgerTokens()).toBe(before + piTokens(g.entries as unknown as Loose[]));
    expect(await backfillLedger()).toBe(0);
  });
});
