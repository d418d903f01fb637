import { describe, expect, it } from "vitest";
import { buildSessionContext, EMPTY_CONTEXT, emptyContext } from "@/lib/session/context";
import {
  assistantEntry,
  branchSummaryEntry,
  chain,
  compactionEntry,
  customEntry,
  customMessageEntry,
  entry,
  isoAt,
  labelEntry,
  modeChangeEntry,
  modelChangeEntry,
  thinkingEntry,
  ttsrEntry,
  userEntry,
} from "@/test/session-factories";
import type { AgentMessage, SessionEntry } from "@/lib/session/types";

/** The text of a built message, or its summary: enough to compare message sequences. */
function show(m: AgentMessage): string {
  if (m.role === "compactionSummary" || m.role === "branchSummary") return `[${m.role}] ${m.summary}`;
  if (m.role === "user" || m.role === "assistant" || m.role === "custom") {
    if (typeof m.content === "string") return m.content;
    return m.content.map((b) => (b.type === "text" ? b.text : "")).join("");
  }
  return `[${m.role}]`;
}
const texts = (entries: SessionEntry[], leaf?: string | null) =>
  buildSessionContext(entries, leaf).messages.map(show);

describe("buildSessionContext basics (session-engine.md §2)", () => {
  it("an empty session gives the empty context", () => {
    expect(buildSessionContext([])).toEqual(emptyContext());
    expect(buildSessionContext([], "x")).toEqual(EMPTY_CONTEXT);
  });

  it("a null leaf gives the empty context even with entries", () => {
    expect(buildSessionContext([userEntry("1", null, "hi")], null)).toEqual({
      messages: [],
      thinkingLevel: "off",
      models: {},
      injectedTtsrRules: [],
      mode: "none",
    });
  });

  it("a single user message gives 1 message", () => {
    expect(texts([userEntry("1", null, "hi")])).toEqual(["hi"]);
  });

  it('a 4-message conversation gives 4, thinkingLevel "off" and models.default from the assistant', () => {
    const entries = chain(
      userEntry("1", null, "q1"),
      assistantEntry("2", null, "a1"),
      userEntry("3", null, "q2"),
      assistantEntry("4", null, "a2", { provider: "anthropic", model: "claude-sonnet-4-5" }),
    );
    const ctx = buildSessionContext(entries);
    expect(ctx.messages).toHaveLength(4);
    expect(ctx.messages[0]).toBe((entries[0] as { message: AgentMessage }).message);
    expect(ctx.thinkingLevel).toBe("off");
    expect(ctx.models).toEqual({ default: "anthropic/claude-sonnet-4-5" });
  });

  it('a thinking change to "high" followed by 2 messages gives "high" and 2 messages', () => {
    const entries = chain(thinkingEntry("1", null, "high"), userEntry("2", null, "q"), assistantEntry("3", null, "a"));
    const ctx = buildSessionContext(entries);
    expect(ctx.thinkingLevel).toBe("high");
    expect(ctx.messages).toHaveLength(2);
  });

  it("an assistant after a model_change wins; a later model_change wins over an earlier assistant", () => {
    const a = chain(
      modelChangeEntry("1", null, "openai/gpt-5"),
      userEntry("2", null, "q"),
      assistantEntry("3", null, "a", { provider: "anthropic", model: "claude-opus-4" }),
    );
    expect(buildSessionContext(a).models.default).toBe("anthropic/claude-opus-4");
    const b = chain(...a, modelChangeEntry("4", null, "openai/gpt-5"));
    expect(buildSessionContext(b).models.default).toBe("openai/gpt-5");
  });

  it("model_change with a role sets that role; legacy { provider, modelId } entries add nothing", () => {
    const entries = chain(
      modelChangeEntry("1", null, "openai/gpt-5-mini", "smol"),
      entry("model_change", "2", null, { provider: "anthropic", modelId: "claude-sonnet-4-5" }),
    );
    expect(buildSessionContext(entries).models).toEqual({ smol: "openai/gpt-5-mini" });
  });

  it("ttsr rules are collected in first-seen order without duplicates", () => {
    const entries = chain(ttsrEntry("1", null, ["b", "a"]), userEntry("2", null, "q"), ttsrEntry("3", null, ["a", "c"]));
    expect(buildSessionContext(entries).injectedTtsrRules).toEqual(["b", "a", "c"]);
  });

  it("mode_change sets mode and modeData; the last one wins", () => {
    const entries = chain(modeChangeEntry("1", null, "plan", { file: "p.md" }), userEntry("2", null, "q"));
    expect(buildSessionContext(entries)).toMatchObject({ mode: "plan", modeData: { file: "p.md" } });
    const exited = chain(...entries, modeChangeEntry("3", null, "none"));
    const ctx = buildSessionContext(exited);
    expect(ctx.mode).toBe("none");
    expect(ctx.modeData).toBeUndefined();
  });

  it("custom_message becomes a custom message with the entry timestamp; custom and label entries add nothing", () => {
    const ts = isoAt(500);
    const entries = chain(
      userEntry("1", null, "q"),
      customEntry("2", null, "state", { x: 1 }),
      customMessageEntry("3", null, "note", "injected", false, { timestamp: ts, extra: { details: { d: 1 } } }),
      labelEntry("4", null, "1", "bookmark"),
    );
    const ctx = buildSessionContext(entries);
    expect(ctx.messages).toHaveLength(2);
    expect(ctx.messages[1]).toEqual({
      role: "custom",
      customType: "note",
      content: "injected",
      display: false,
      details: { d: 1 },
      timestamp: Date.parse(ts),
    });
  });

  it("a branch_summary with an empty summary adds nothing", () => {
    const entries = chain(userEntry("1", null, "q"), branchSummaryEntry("2", null, "1", ""));
    expect(texts(entries)).toEqual(["q"]);
  });
});

describe("buildSessionContext with compaction (session-engine.md §2 step 7)", () => {
  const conversation = () =>
    chain(
      userEntry("1", null, "first"),
      assistantEntry("2", null, "response1"),
      userEntry("3", null, "second"),
      assistantEntry("4", null, "response2"),
      compactionEntry("5", null, "Summary", "3", 1234),
      userEntry("6", null, "third"),
      assistantEntry("7", null, "response3"),
    );

  it('entries 1..7 with compaction "5" keeping from "3" give 5 messages', () => {
    const entries = conversation();
    const ctx = buildSessionContext(entries);
    expect(ctx.messages.map(show)).toEqual([
      "[compactionSummary] Summary",
      "second",
      "response2",
      "third",
      "response3",
    ]);
    expect(ctx.messages[0]).toEqual({
      role: "compactionSummary",
      summary: "Summary",
      shortSummary: undefined,
      tokensBefore: 1234,
      timestamp: Date.parse(entries[4]!.timestamp),
    });
  });

  it("with keep-from pointing at the first entry, the result is 4", () => {
    const entries = chain(
      userEntry("1", null, "first"),
      assistantEntry("2", null, "response1"),
      compactionEntry("3", null, "Summary", "1"),
      userEntry("4", null, "after"),
    );
    expect(texts(entries)).toEqual(["[compactionSummary] Summary", "first", "response1", "after"]);
  });

  it('with two compactions, the second ("Second summary") is used', () => {
    const entries = chain(
      userEntry("1", null, "first"),
      assistantEntry("2", null, "response1"),
      compactionEntry("3", null, "First summary", "1"),
      userEntry("4", null, "second"),
      assistantEntry("5", null, "response2"),
      compactionEntry("6", null, "Second summary", "4"),
      userEntry("7", null, "third"),
    );
    const ctx = buildSessionContext(entries);
    expect(ctx.messages.map(show)).toEqual(["[compactionSummary] Second summary", "second", "response2", "third"]);
  });

  it("a firstKeptEntryId not found before the compaction keeps none of the earlier entries", () => {
    const entries = chain(
      userEntry("1", null, "first"),
      assistantEntry("2", null, "response1"),
      compactionEntry("3", null, "S", "nope"),
      userEntry("4", null, "after"),
    );
    expect(texts(entries)).toEqual(["[compactionSummary] S", "after"]);
    // An id that exists only after the compaction does not count either.
    const later = chain(...entries.slice(0, 2), compactionEntry("3", null, "S", "4"), entries[3]!);
    expect(texts(later)).toEqual(["[compactionSummary] S", "after"]);
  });

  it("carries the shortSummary of the compaction", () => {
    const entries = chain(userEntry("1", null, "q"), compactionEntry("2", null, "S", "1", 5, { extra: { shortSummary: "s" } }));
    expect(buildSessionContext(entries).messages[0]).toMatchObject({ role: "compactionSummary", shortSummary: "s" });
  });

  it("settings before the compaction still apply", () => {
    const entries = chain(thinkingEntry("0", null, "medium"), ...conversation());
    expect(buildSessionContext(entries).thinkingLevel).toBe("medium");
  });
});

describe("buildSessionContext on trees (session-engine.md §2 steps 3–4)", () => {
  const fork = () => [
    userEntry("1", null, "q1"),
    assistantEntry("2", "1", "a1"),
    userEntry("3", "2", "left"),
    userEntry("4", "2", "right"),
  ];

  it('leaf "3" and leaf "4" each give 3 messages', () => {
    expect(texts(fork(), "3")).toEqual(["q1", "a1", "left"]);
    expect(texts(fork(), "4")).toEqual(["q1", "a1", "right"]);
  });

  it("a path that contains a branch summary gives 4 messages, with messages[2].summary set", () => {
    const entries = [
      userEntry("1", null, "q1"),
      assistantEntry("2", "1", "a1"),
      branchSummaryEntry("3", "2", "2", "what the abandoned branch did"),
      userEntry("4", "3", "next"),
    ];
    const ctx = buildSessionContext(entries, "4");
    expect(ctx.messages).toHaveLength(4);
    expect(ctx.messages[2]).toEqual({
      role: "branchSummary",
      summary: "what the abandoned branch did",
      fromId: "2",
      timestamp: Date.parse(entries[2]!.timestamp),
    });
  });

  it("complex tree: leaf 7 gives [compaction, q2, r2, q3, r3]; leaf 11 gives [start, r1, q2, branchSummary, better approach]", () => {
    const entries = [
      userEntry("1", null, "start"),
      assistantEntry("2", "1", "r1"),
      userEntry("3", "2", "q2"),
      assistantEntry("4", "3", "r2"),
      compactionEntry("5", "4", "compaction", "3"),
      userEntry("6", "5", "q3"),
      assistantEntry("7", "6", "r3"),
      // An abandoned branch from q2, then a branch summary attached under q2.
      assistantEntry("8", "3", "wrong approach"),
      userEntry("9", "8", "that failed"),
      branchSummaryEntry("10", "3", "3", "tried the wrong approach"),
      assistantEntry("11", "10", "better approach"),
    ];
    expect(texts(entries, "7")).toEqual(["[compactionSummary] compaction", "q2", "r2", "q3", "r3"]);
    expect(texts(entries, "11")).toEqual([
      "start",
      "r1",
      "q2",
      "[branchSummary] tried the wrong approach",
      "better approach",
    ]);
  });

  it("an unknown leaf falls back to the last entry (2 messages)", () => {
    const entries = chain(userEntry("1", null, "q"), assistantEntry("2", null, "a"));
    expect(texts(entries, "does-not-exist")).toEqual(["q", "a"]);
    expect(texts(entries, undefined)).toEqual(["q", "a"]);
  });

  it("the fallback is the last entry of the array even when that is on another branch", () => {
    expect(texts(fork())).toEqual(["q1", "a1", "right"]);
  });

  it("an orphan gives 1 message (a missing parent ends the walk)", () => {
    const entries = [userEntry("1", null, "q"), userEntry("2", "missing", "orphan")];
    expect(texts(entries, "2")).toEqual(["orphan"]);
  });

  it("a self-parented entry or a parent cycle terminates", () => {
    expect(texts([userEntry("1", "1", "self")])).toEqual(["self"]);
    const cycle = [userEntry("1", "2", "one"), userEntry("2", "1", "two")];
    expect(texts(cycle, "2")).toEqual(["one", "two"]);
  });

  it("uses a passed byId map instead of indexing", () => {
    const entries = fork();
    const byId = new Map(entries.map((e) => [e.id, e]));
    byId.delete("1"); // the map is authoritative: without "1" the walk stops at "2"
    expect(buildSessionContext(entries, "3", byId).messages.map(show)).toEqual(["a1", "left"]);
  });
});
