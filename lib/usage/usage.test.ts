/**
 * The ledger's rows, prices and reports (docs/usage.md): what a user reading a cost would check.
 */
import { describe, expect, it } from "vitest";
import type { AssistantMessage, SessionEntry, SessionHeader } from "@/lib/session/types";
import { priceRow, parseDollarsPerMillion } from "./prices";
import { buildReport, ccusageJson, type LedgerRow } from "./report";
import { firstOfEachResponse, type UsageRow, usageRows } from "./rows";

const header: SessionHeader = { type: "session", version: 3, id: "s1", timestamp: "2026-01-01T10:00:00.000Z", cwd: "/p" };

function assistant(id: string, usage: Partial<AssistantMessage["usage"]>, extra: Partial<AssistantMessage> = {}, source?: object): SessionEntry {
  const message: AssistantMessage = {
    role: "assistant",
    content: [{ type: "text", text: "ok" }],
    provider: "anthropic",
    model: "claude-sonnet-4-20250514",
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, ...usage },
    stopReason: "stop",
    timestamp: Date.parse("2026-01-01T10:00:00.000Z"),
    ...extra,
  };
  return { type: "message", id, parentId: null, timestamp: "2026-01-01T10:00:00.000Z", message, ...(source ? { source } : {}) } as SessionEntry;
}

const row = (over: Partial<UsageRow>): UsageRow => ({
  entryId: "e",
  kind: "message",
  at: Date.parse("2026-01-01T10:00:00Z"),
  provider: "anthropic",
  model: "claude-sonnet-4-20250514",
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  reasoning: 0,
  ...over,
});

describe("ledger rows", () => {
  it("one row per assistant message with usage, and per compaction or branch summary that carries one", () => {
    const entries: SessionEntry[] = [
      { type: "message", id: "u", parentId: null, timestamp: header.timestamp, message: { role: "user", content: "hi", timestamp: 0 } },
      assistant("a1", { input: 10, output: 5 }),
      assistant("a2", {}),
      {
        type: "compaction",
        id: "c",
        parentId: "a1",
        timestamp: header.timestamp,
        summary: "s",
        firstKeptEntryId: "a1",
        tokensBefore: 100,
        usage: { input: 100, output: 20, cacheRead: 0, cacheWrite: 0 },
        model: "openai/gpt-4o",
      } as SessionEntry,
      { type: "branch_summary", id: "b", parentId: "a1", timestamp: header.timestamp, fromId: "a1", summary: "s" },
    ];
    const rows = usageRows(header, entries);
    expect(rows.map((r) => [r.entryId, r.kind, r.provider, r.model])).toEqual([
      ["a1", "message", "anthropic", "claude-sonnet-4-20250514"],
      ["c", "compaction", "openai", "gpt-4o"],
    ]);
  });

  it("counts a Claude Code response once, by message id and request id, with its first record's tokens", () => {
    const src = (firstUsage?: object) => ({ message: { id: "msg_1" }, requestId: "req_1", ...(firstUsage ? { firstUsage } : {}) });
    const a = assistant("a", { input: 3, output: 99 }, { api: "anthropic-messages" }, src({ input: 3, output: 1, cacheRead: 0, cacheWrite: 0 }));
    const copy = assistant("a-copy", { input: 3, output: 99 }, { api: "anthropic-messages" }, src());
    const rows = firstOfEachResponse([...usageRows(header, [a]), ...usageRows(header, [copy])], new Set());
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ entryId: "a", input: 3, output: 1, dedupeKey: "anthropic:msg_1:req_1" });
  });
});

describe("prices", () => {
  it("a cost the file records wins over the catalogue and the user's prices", () => {
    const r = row({ input: 1000, output: 1000, recordedCostMicros: 1234 });
    expect(priceRow(r, { "claude-sonnet-4-20250514": { input: 1_000_000, output: 1_000_000 } })).toEqual({ costMicros: 1234, source: "recorded" });
  });

  it("the catalogue's price is the one in force on the message's date", () => {
    const r = { provider: "openai", model: "o3", input: 1_000_000 };
    const before = priceRow(row({ ...r, at: Date.parse("2025-05-01T12:00:00Z") }));
    const after = priceRow(row({ ...r, at: Date.parse("2025-07-01T12:00:00Z") }));
    expect(before.source).toBe("catalogue");
    // OpenAI cut o3's input price from $10 to $2 per million tokens on 2025-06-10.
    expect(before.costMicros).toBe(10_000_000);
    expect(after.costMicros).toBe(2_000_000);
  });

  it("cache reads and writes are priced as such, not as input", () => {
    const plain = priceRow(row({ input: 1_000_000 })).costMicros!;
    const read = priceRow(row({ cacheRead: 1_000_000 })).costMicros!;
    const write = priceRow(row({ cacheWrite: 1_000_000 })).costMicros!;
    expect(read).toBeLessThan(plain / 5);
    expect(write).toBeGreaterThan(plain);
  });

  it("an unknown model keeps its tokens and has no price", () => {
    const r = row({ provider: "acme", model: "acme-private-1", input: 500, output: 50 });
    expect(priceRow(r)).toEqual({ source: "unknown" });
    const report = buildReport([{ ...r, sessionId: "s" }], "daily");
    expect(report.groups[0]).toMatchObject({ inputTokens: 500, outputTokens: 50, totalCost: 0, unpricedTokens: 550 });
  });

  it("the user's prices apply to a model the catalogue lacks, per million tokens, in whole millionths", () => {
    const r = row({ provider: "acme", model: "acme-private-1", input: 2_000_000, output: 1_000_000, cacheRead: 1_000_000 });
    const prices = { input: parseDollarsPerMillion("1.5")!, output: parseDollarsPerMillion("6")!, cacheRead: parseDollarsPerMillion("0.15")! };
    expect(prices).toEqual({ input: 1_500_000, output: 6_000_000, cacheRead: 150_000 });
    expect(priceRow(r, { "acme-private-1": prices })).toEqual({ costMicros: 3_000_000 + 6_000_000 + 150_000, source: "override" });
    // 333 tokens at $0.0015 per million: 0.4995 millionths, rounded half up per token kind.
    expect(priceRow(row({ ...r, input: 333, output: 1000, cacheRead: 0 }), { "acme-private-1": { input: 1500, output: 500 } }).costMicros).toBe(1);
    expect(["", "x", "1.2345678", "-1"].map(parseDollarsPerMillion)).toEqual([undefined, undefined, undefined, undefined]);
  });
});

describe("reports", () => {
  it("groups by local day in ccusage's shape, with models broken down and totals", () => {
    const rows: LedgerRow[] = [
      { ...row({ input: 10, output: 1, recordedCostMicros: 1_000_000, at: Date.parse("2026-01-01T10:00:00") }), sessionId: "s" },
      { ...row({ model: "other", input: 5, recordedCostMicros: 500_000, at: Date.parse("2026-01-01T23:00:00") }), sessionId: "s" },
      { ...row({ cacheRead: 7, recordedCostMicros: 250_000, at: Date.parse("2026-01-02T01:00:00") }), sessionId: "t" },
    ];
    const json = ccusageJson(buildReport(rows, "daily"), "daily") as { daily: { date: string; totalCost: number; modelsUsed: string[] }[]; totals: { totalTokens: number; totalCost: number } };
    expect(json.daily.map((d) => [d.date, d.totalCost, d.modelsUsed])).toEqual([
      ["2026-01-01", 1.5, ["claude-sonnet-4-20250514", "other"]],
      ["2026-01-02", 0.25, ["claude-sonnet-4-20250514"]],
    ]);
    expect(json.totals).toMatchObject({ totalTokens: 23, totalCost: 1.75 });
  });
});
