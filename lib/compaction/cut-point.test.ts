import { describe, expect, it } from "vitest";
import { findCutPoint, findTurnStartIndex, findValidCutPoints } from "@/lib/compaction/cut-point";
import { assistant, bash, call, conversation, ent, linked, msg, toolResult, user, words } from "@/test/compaction-helpers";
import type { AgentMessage, SessionEntry } from "@/lib/session/types";

const role = (e: SessionEntry | undefined) => (e?.type === "message" ? e.message.role : e?.type);
const custom: AgentMessage = { role: "custom", customType: "c", content: "x", display: true, timestamp: 0 };

/** A tool-heavy conversation: each turn is user → assistant(call) → toolResult → assistant. */
function toolSession(turns: number): SessionEntry[] {
  const out: SessionEntry[] = [];
  for (let t = 0; t < turns; t++) {
    out.push(msg(`u${t}`, user(words(20 + (t % 7)))));
    out.push(msg(`c${t}`, assistant(words(5), { calls: [call(`k${t}`, "bash", { command: "ls" })] })));
    out.push(msg(`r${t}`, toolResult(`k${t}`, words(300 + 13 * (t % 5)))));
    out.push(msg(`a${t}`, assistant(words(40))));
  }
  return linked(...out);
}

describe("findValidCutPoints (session-engine.md §5.1)", () => {
  it("lists user/assistant/bash/custom/hook/summary messages, branch_summary and custom_message only", () => {
    const entries = linked(
      msg("0", user("u")),
      msg("1", assistant("a")),
      msg("2", toolResult("k", "r")),
      msg("3", bash("ls", "")),
      msg("4", custom),
      msg("5", { ...custom, role: "hookMessage" }),
      msg("6", { role: "branchSummary", summary: "s", fromId: "f", timestamp: 0 }),
      msg("7", { role: "compactionSummary", summary: "s", tokensBefore: 0, timestamp: 0 }),
      msg("8", { role: "pythonExecution", code: "", output: "", exitCode: 0, cancelled: false, truncated: false, timestamp: 0 }),
      msg("9", { role: "fileMention", files: [], timestamp: 0 }),
      ent("branch_summary", "10", { fromId: "1", summary: "s" }),
      ent("custom_message", "11", { customType: "c", content: "x", display: true }),
      ent("thinking_level_change", "12", { thinkingLevel: "high" }),
      ent("compaction", "13", { summary: "s", firstKeptEntryId: "0", tokensBefore: 0 }),
      ent("label", "14", { targetId: "0", label: "l" }),
      ent("mystery", "15"),
    );
    expect(findValidCutPoints(entries, 0, entries.length)).toEqual([0, 1, 3, 4, 5, 6, 7, 10, 11]);
    expect(findValidCutPoints(entries, 2, 7)).toEqual([3, 4, 5, 6]);
  });
});

describe("findTurnStartIndex (session-engine.md §5.2)", () => {
  const entries = linked(
    msg("0", user("u")),
    msg("1", assistant("a")),
    ent("custom_message", "2", { customType: "c", content: "x", display: true }),
    msg("3", assistant("a")),
    msg("4", bash("ls", "")),
    msg("5", assistant("a")),
  );
  it("walks down to the nearest user, bashExecution, custom_message or branch_summary", () => {
    expect(findTurnStartIndex(entries, 5, 0)).toBe(4);
    expect(findTurnStartIndex(entries, 4, 0)).toBe(4);
    expect(findTurnStartIndex(entries, 3, 0)).toBe(2);
    expect(findTurnStartIndex(entries, 1, 0)).toBe(0);
  });
  it("returns -1 when nothing at or after start opens a turn", () => {
    expect(findTurnStartIndex(entries, 1, 1)).toBe(-1);
  });
});

describe("findCutPoint (session-engine.md §5.3)", () => {
  it("example: a single assistant entry with keep 1000 gives index 0", () => {
    const entries = linked(msg("a", assistant(words(10))));
    expect(findCutPoint(entries, 0, 1, 1000)).toEqual({ firstKeptEntryIndex: 0, turnStartIndex: -1, isSplitTurn: false });
  });

  it("example: keep 50000 on a small session gives index 0", () => {
    const entries = conversation(5, 100);
    expect(findCutPoint(entries, 0, entries.length, 50000).firstKeptEntryIndex).toBe(0);
  });

  it("example: in a plain conversation the cut is always a user or assistant message", () => {
    const entries = conversation(20, 50);
    for (let keep = 1; keep <= 2100; keep += 37) {
      const cut = findCutPoint(entries, 0, entries.length, keep);
      expect(["user", "assistant"]).toContain(role(entries[cut.firstKeptEntryIndex]));
    }
  });

  it("cuts at the first cut point at or after where the budget is reached", () => {
    const entries = conversation(4, 100); // u0 a0 u1 a1 u2 a2 u3 a3
    expect(findCutPoint(entries, 0, 8, 250)).toEqual({ firstKeptEntryIndex: 5, turnStartIndex: 4, isSplitTurn: true });
    expect(findCutPoint(entries, 0, 8, 400)).toEqual({ firstKeptEntryIndex: 4, turnStartIndex: -1, isSplitTurn: false });
    expect(findCutPoint(entries, 2, 8, 100000).firstKeptEntryIndex).toBe(2);
  });

  it("never cuts at a toolResult, for any budget", () => {
    const entries = toolSession(30);
    for (let keep = 1; keep <= 12000; keep += 97) {
      const cut = findCutPoint(entries, 0, entries.length, keep);
      expect(role(entries[cut.firstKeptEntryIndex])).not.toBe("toolResult");
    }
  });

  it("returns startIndex with no turn when there are no cut points (only tool results, or empty)", () => {
    const onlyResults = linked(msg("1", toolResult("a", words(10))), msg("2", toolResult("b", words(10))));
    expect(findCutPoint(onlyResults, 0, 2, 5)).toEqual({ firstKeptEntryIndex: 0, turnStartIndex: -1, isSplitTurn: false });
    expect(findCutPoint([], 0, 0, 5)).toEqual({ firstKeptEntryIndex: 0, turnStartIndex: -1, isSplitTurn: false });
  });

  it("keeps the default when the budget is spent after the last cut point", () => {
    const entries = linked(
      msg("u", user("q")),
      msg("c", assistant("", { calls: [call("k", "bash")] })),
      msg("r", toolResult("k", words(500))),
    );
    expect(findCutPoint(entries, 0, 3, 50).firstKeptEntryIndex).toBe(0);
  });

  it("splits a turn at an assistant and reports the turn's user message", () => {
    const entries = linked(
      msg("u", user(words(10))),
      msg("c1", assistant(words(10), { calls: [call("k1", "bash")] })),
      msg("r1", toolResult("k1", words(100))),
      msg("c2", assistant(words(10), { calls: [call("k2", "bash")] })),
      msg("r2", toolResult("k2", words(100))),
      msg("a", assistant(words(10))),
    );
    expect(findCutPoint(entries, 0, 6, 150)).toEqual({ firstKeptEntryIndex: 3, turnStartIndex: 0, isSplitTurn: true });
  });

  it("pulls in settings, labels and other non-message entries before the cut, stopping at a compaction", () => {
    const entries = linked(
      ent("compaction", "cmp", { summary: "s", firstKeptEntryId: "x", tokensBefore: 1 }),
      ent("thinking_level_change", "t", { thinkingLevel: "high" }),
      ent("label", "l", { targetId: "t", label: "x" }),
      msg("u1", user(words(100))),
      msg("a1", assistant(words(100))),
    );
    // The budget is met at u1; the two entries before it travel with it, the compaction does not.
    const cut = findCutPoint(entries, 0, entries.length, 150);
    expect(cut.firstKeptEntryIndex).toBe(1);
    // The kept region now opens with a non-user entry, but no turn opener precedes it here.
    expect(cut).toEqual({ firstKeptEntryIndex: 1, turnStartIndex: -1, isSplitTurn: false });
  });

  it("pulling in before a user message whose turn has an earlier opener marks a split (spec step 5)", () => {
    const entries = linked(
      msg("u0", user(words(100))),
      msg("a0", assistant(words(100))),
      ent("model_change", "m", { model: "p/x" }),
      msg("u1", user(words(100))),
      msg("a1", assistant(words(100))),
    );
    expect(findCutPoint(entries, 0, 5, 150)).toEqual({ firstKeptEntryIndex: 2, turnStartIndex: 0, isSplitTurn: true });
  });

  it("a cut at a custom_message is its own turn start (split, empty prefix)", () => {
    const entries = linked(
      msg("u", user(words(10))),
      msg("c", assistant("", { calls: [call("k", "bash")] })),
      msg("r", toolResult("k", words(100))),
      ent("custom_message", "cm", { customType: "n", content: words(500), display: true }),
      msg("a", assistant(words(5))),
    );
    expect(findCutPoint(entries, 0, 5, 50)).toEqual({ firstKeptEntryIndex: 3, turnStartIndex: 3, isSplitTurn: true });
  });

  it("a cut at a branch_summary entry is its own turn start", () => {
    const entries = linked(
      msg("u", user(words(10))),
      msg("c", assistant("", { calls: [call("k", "bash")] })),
      msg("r", toolResult("k", words(100))),
      ent("branch_summary", "bs", { fromId: "r", summary: "s" }),
      msg("a", assistant(words(5))),
    );
    expect(findCutPoint(entries, 0, 5, 50)).toEqual({ firstKeptEntryIndex: 3, turnStartIndex: 3, isSplitTurn: true });
  });

  it("a cut at a bashExecution message is its own turn start", () => {
    const entries = linked(
      msg("u", user(words(10))),
      msg("c", assistant("", { calls: [call("k", "bash")] })),
      msg("r", toolResult("k", words(100))),
      msg("b", bash("ls", "")),
      msg("a", assistant(words(5))),
    );
    expect(findCutPoint(entries, 0, 5, 50)).toEqual({ firstKeptEntryIndex: 3, turnStartIndex: 3, isSplitTurn: true });
  });

  it("counts only message entries: custom_message tokens do not use up the budget", () => {
    const entries = linked(
      msg("u0", user(words(100))),
      msg("a0", assistant(words(100))),
      ent("custom_message", "cm", { customType: "n", content: words(10000), display: true }),
      msg("u1", user(words(10))),
    );
    // Only u1 (10) and then a0 (100) count; the budget is met at a0.
    expect(findCutPoint(entries, 0, 4, 50).firstKeptEntryIndex).toBe(1);
  });

  it("custom messages are cut points (session-engine.md §18.3)", () => {
    const entries = linked(
      msg("u", user(words(100))),
      msg("c", assistant("", { calls: [call("k", "bash")] })),
      msg("r", toolResult("k", words(100))),
      msg("cu", custom),
      msg("a", assistant(words(5))),
    );
    // The budget is met at the toolResult; the next cut point is the custom message, not "a".
    expect(findCutPoint(entries, 0, 5, 50)).toEqual({ firstKeptEntryIndex: 3, turnStartIndex: 0, isSplitTurn: true });
  });

  it("is linear: 200k entries finish quickly", () => {
    const entries = conversation(100_000, 3);
    const started = performance.now();
    const cut = findCutPoint(entries, 0, entries.length, 20_000);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(entries.length - cut.firstKeptEntryIndex).toBeGreaterThan(6000);
  });
});
