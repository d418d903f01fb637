import { describe, expect, it } from "vitest";
import { compactionMessageOf, nothingToCompactReason, prepareCompaction } from "@/lib/compaction/prepare";
import { assistant, call, conversation, ent, linkAll, linked, msg, settings, toolResult, user, words } from "@/test/compaction-helpers";
import { estimateTokens } from "@/lib/compaction/tokens";
import type { AgentMessage, SessionEntry } from "@/lib/session/types";

const total = (messages: AgentMessage[]) => messages.reduce((n, m) => n + estimateTokens(m), 0);
const compaction = (id: string, fields: Record<string, unknown> = {}) =>
  ent("compaction", id, { summary: `summary of ${id}`, firstKeptEntryId: "x", tokensBefore: 5, ...fields });

/** conversation(turns, 100) with provider usage on the last assistant. */
function withUsage(turns: number, input: number): SessionEntry[] {
  const entries = conversation(turns, 100);
  entries[entries.length - 1] = msg(`a${turns - 1}`, assistant(words(100), { usage: { input } }));
  return linkAll(entries);
}

describe("compactionMessageOf (session-engine.md §5.4)", () => {
  it("maps message, custom_message and branch_summary entries; compaction and others map to nothing", () => {
    const ts = "2025-02-03T04:05:06.000Z";
    const m = user("hi");
    expect(compactionMessageOf(msg("1", m))).toBe(m);
    expect(compactionMessageOf({ ...ent("custom_message", "2", { customType: "n", content: "c", display: false, details: { d: 1 } }), timestamp: ts })).toEqual({
      role: "custom",
      customType: "n",
      content: "c",
      display: false,
      details: { d: 1 },
      timestamp: Date.parse(ts),
    });
    expect(compactionMessageOf({ ...ent("branch_summary", "3", { fromId: "1", summary: "s" }), timestamp: ts })).toEqual({
      role: "branchSummary",
      summary: "s",
      fromId: "1",
      timestamp: Date.parse(ts),
    });
    expect(compactionMessageOf(compaction("4"))).toBeUndefined();
    expect(compactionMessageOf(ent("thinking_level_change", "5", { thinkingLevel: "low" }))).toBeUndefined();
  });
});

describe("prepareCompaction (session-engine.md §5.4)", () => {
  it("returns undefined right after a compaction, reported as 'Already compacted'", () => {
    const path = linked(...conversation(3, 100), compaction("c"));
    expect(prepareCompaction(path, settings())).toBeUndefined();
    expect(nothingToCompactReason(path)).toBe("Already compacted");
  });

  it("returns undefined for an empty path, reported as too small", () => {
    expect(prepareCompaction([], settings())).toBeUndefined();
    expect(nothingToCompactReason([])).toBe("Nothing to compact (session too small)");
  });

  it("returns undefined for unmigrated entries without ids", () => {
    const path = conversation(3, 100).map((e) => ({ ...e, id: undefined }) as unknown as SessionEntry);
    expect(prepareCompaction(path, settings({ keepRecentTokens: 150 }))).toBeUndefined();
  });

  it("splits a plain conversation into summarized and kept messages at a user message", () => {
    const path = conversation(5, 100); // u0 a0 … u4 a4
    const prep = prepareCompaction(path, settings({ keepRecentTokens: 400 }));
    expect(prep).toMatchObject({ firstKeptEntryId: "u3", isSplitTurn: false, tokensBefore: 0, previousSummary: undefined });
    expect(prep?.messagesToSummarize).toHaveLength(6);
    expect(prep?.turnPrefixMessages).toEqual([]);
    expect(prep?.recentMessages).toHaveLength(4);
    expect(prep?.recentMessages[0]).toBe(path[6]?.type === "message" ? path[6].message : undefined);
  });

  it("a tiny session keeps everything and summarizes nothing", () => {
    const prep = prepareCompaction(conversation(2, 10), settings());
    expect(prep?.firstKeptEntryId).toBe("u0");
    expect(prep?.messagesToSummarize).toEqual([]);
    expect(prep?.recentMessages).toHaveLength(4);
  });

  it("takes tokensBefore from the last usable assistant usage", () => {
    const prep = prepareCompaction(withUsage(3, 1000), settings());
    expect(prep?.tokensBefore).toBe(1000);
  });

  it("ratio > 1 lowers keepRecentTokens (provider counts 2× our estimate)", () => {
    // 20 messages × 100 estimated = 2000; prompt tokens 4000 → ratio 2 → keep 1000 / 2 = 500.
    const prep = prepareCompaction(withUsage(10, 4000), settings({ keepRecentTokens: 1000 }));
    expect(total([...(prep?.turnPrefixMessages ?? []), ...(prep?.recentMessages ?? [])])).toBe(600);
    expect(total(prep?.recentMessages ?? [])).toBe(500);
    expect(prep?.isSplitTurn).toBe(true);
  });

  it("ratio < 1 never raises keepRecentTokens", () => {
    const prep = prepareCompaction(withUsage(10, 1000), settings({ keepRecentTokens: 1000 }));
    expect(total(prep?.recentMessages ?? [])).toBe(1000);
    expect(prep?.firstKeptEntryId).toBe("u5");
  });

  it("uses the whole path for usage, but only entries after the previous compaction for the cut", () => {
    const before = withUsage(3, 900);
    const path = linked(
      ...before,
      compaction("c1", { firstKeptEntryId: "u2", details: { readFiles: ["r.ts"], modifiedFiles: ["m.ts"] } }),
      // The newer assistants were aborted, so the newest usable usage predates the compaction.
      ...conversation(4, 100).map((e) =>
        e.type === "message" && e.message.role === "assistant"
          ? msg(`n-${e.id}`, { ...e.message, stopReason: "aborted" })
          : ({ ...e, id: `n-${e.id}` } as SessionEntry),
      ),
    );
    const prep = prepareCompaction(path, settings({ keepRecentTokens: 200 }));
    expect(prep?.tokensBefore).toBe(900);
    expect(prep?.previousSummary).toBe("summary of c1");
    expect(prep?.firstKeptEntryId).toBe("n-u3");
    // Nothing from before the compaction is summarized again.
    expect(prep?.messagesToSummarize).toHaveLength(6);
    expect(prep?.fileOps.read).toEqual(new Set(["r.ts"]));
    expect(prep?.fileOps.edited).toEqual(new Set(["m.ts"]));
  });

  it("does not seed file ops from an extension's (or pi hook's) compaction", () => {
    for (const flag of [{ fromExtension: true }, { fromHook: true }]) {
      const path = linked(
        compaction("c1", { ...flag, details: { readFiles: ["r.ts"], modifiedFiles: ["m.ts"] } }),
        ...conversation(3, 100),
      );
      const prep = prepareCompaction(path, settings({ keepRecentTokens: 100 }));
      expect(prep?.previousSummary).toBe("summary of c1");
      expect(prep?.fileOps.read.size).toBe(0);
      expect(prep?.fileOps.edited.size).toBe(0);
    }
  });

  it("extracts file ops from summarized and prefix messages, not from kept ones", () => {
    const path = linked(
      msg("u0", user(words(50))),
      msg("a0", assistant(words(10), { calls: [call("k0", "read", { path: "old.ts" })] })),
      msg("r0", toolResult("k0", words(50))),
      msg("u1", user(words(50))),
      msg("a1", assistant(words(10), { calls: [call("k1", "write", { path: "prefix.ts" })] })),
      msg("r1", toolResult("k1", words(50))),
      msg("a2", assistant(words(10), { calls: [call("k2", "edit", { path: "kept.ts" })] })),
      msg("r2", toolResult("k2", words(50))),
      msg("a3", assistant(words(10))),
    );
    const prep = prepareCompaction(path, settings({ keepRecentTokens: 100 }));
    expect(prep).toMatchObject({ firstKeptEntryId: "a2", isSplitTurn: true });
    expect(prep?.messagesToSummarize).toHaveLength(3);
    expect(prep?.turnPrefixMessages).toHaveLength(3);
    expect(prep?.recentMessages).toHaveLength(3);
    expect([...(prep?.fileOps.read ?? [])]).toEqual(["old.ts"]);
    expect([...(prep?.fileOps.written ?? [])]).toEqual(["prefix.ts"]);
    expect(prep?.fileOps.edited.size).toBe(0);
  });

  it("a cut at a custom_message is split with an empty prefix", () => {
    const path = linked(
      msg("u", user(words(10))),
      msg("c", assistant("", { calls: [call("k", "bash")] })),
      msg("r", toolResult("k", words(100))),
      ent("custom_message", "cm", { customType: "n", content: "note", display: true }),
      msg("a", assistant(words(5))),
    );
    const prep = prepareCompaction(path, settings({ keepRecentTokens: 50 }));
    expect(prep).toMatchObject({ firstKeptEntryId: "cm", isSplitTurn: true, turnPrefixMessages: [] });
    expect(prep?.messagesToSummarize.map((m) => m.role)).toEqual(["user", "assistant", "toolResult"]);
    expect(prep?.recentMessages.map((m) => m.role)).toEqual(["custom", "assistant"]);
  });

  it("passes the settings through", () => {
    const s = settings({ reserveTokens: 1000, keepRecentTokens: 50 });
    expect(prepareCompaction(conversation(2, 100), s)?.settings).toBe(s);
  });

  it("is linear: a 100k-entry path prepares quickly", () => {
    const path = withUsage(50_000, 2_000_000);
    const started = performance.now();
    const prep = prepareCompaction(path, settings());
    expect(performance.now() - started).toBeLessThan(1000);
    expect((prep?.messagesToSummarize.length ?? 0) + (prep?.turnPrefixMessages.length ?? 0) + (prep?.recentMessages.length ?? 0)).toBe(100_000);
  });
});
