/**
 * reconstructTurn, the source mapping and the turn view on a small tree with a compaction and a
 * branch summary (session-engine.md §2, §3), and on the large pi fixture.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { TEST_PROMPTS } from "@/test/compaction-helpers";
import { canonicalJson } from "@/lib/content-address";
import { previousAssistantId, RECONSTRUCTED_NOTE, reconstructTurn } from "@/lib/inspector/reconstruct";
import { buildEntryMatchIndex, matchRecordedSources, sourcedContext } from "@/lib/inspector/sources";
import { buildTurnView } from "@/lib/inspector/turn-view";
import { convertToLlm } from "@/lib/session/file/convert";
import { loadSession } from "@/lib/session/file/load";
import {
  assistantEntry,
  branchSummaryEntry,
  compactionEntry,
  messageEntry,
  text,
  toolResultMsg,
  userEntry,
} from "@/test/session-factories";
import type { LlmMessage, SessionEntry } from "@/lib/session/types";
import { hasFixtures, LARGE_SESSION } from "@/test/fixtures";

/** Session-engine.md §2's example shape: 1..7 with compaction 5 keeping from 3; a side branch with a summary. */
function tree(): SessionEntry[] {
  return [
    userEntry("1", null, "first"),
    assistantEntry("2", "1", "response1", { usage: { input: 40, output: 5 } }),
    userEntry("3", "2", "second"),
    assistantEntry("4", "3", "response2"),
    compactionEntry("5", "4", "SUMMARY OF 1-2", "3"),
    userEntry("6", "5", "third"),
    assistantEntry("7", "6", "response3", { usage: { input: 300, cacheRead: 20, output: 9 } }),
    branchSummaryEntry("9", "2", "2", "tried another way"),
    userEntry("10", "9", "after the summary"),
    assistantEntry("11", "10", "answer"),
  ];
}

const roles = (messages: { message: LlmMessage }[]) => messages.map((m) => m.message.role);
const textOf = (m: LlmMessage) =>
  typeof m.content === "string" ? m.content : m.content.map((b) => ("text" in b ? b.text : "")).join("");

describe("reconstructTurn (session-engine.md §2 at the assistant's parent, then §3)", () => {
  it("puts the compaction summary first, then the kept messages from firstKeptEntryId", () => {
    const entries = tree();
    const turn = reconstructTurn(entries, "7", TEST_PROMPTS)!;
    expect(turn.reconstructed).toBe(true);
    expect(turn.path.map((e) => e.id)).toEqual(["1", "2", "3", "4", "5", "6"]);
    expect(turn.messages.map((m) => m.sourceEntryId)).toEqual(["5", "3", "4", "6"]);
    expect(turn.messages.map((m) => m.source)).toEqual(["compaction", "entry", "entry", "entry"]);
    expect(roles(turn.messages)).toEqual(["user", "user", "assistant", "user"]);
    expect(textOf(turn.messages[0]!.message)).toBe("Recap follows.\n\n<summary>\nSUMMARY OF 1-2\n</summary>");
    expect(turn.model).toBe("anthropic/claude-sonnet-4-5");
    expect(turn.providerPromptTokens).toBe(320);
    // The kept messages as the model got them (session-engine.md §3), written out, each hashed as stored.
    expect(turn.messages.slice(1).map((m) => [m.message.role, textOf(m.message)])).toEqual([
      ["user", "second"],
      ["assistant", "response2"],
      ["user", "third"],
    ]);
    // The hash is sha256 of the message's JSON with sorted keys (the store's content key).
    expect(turn.messages.map((m) => m.hash)).toEqual(turn.messages.map((m) => sha256(sortedJson(m.message))));
    expect(new Set(turn.messages.map((m) => m.hash)).size).toBe(4);
  });

  it("maps a branch summary to its branch_summary entry", () => {
    const turn = reconstructTurn(tree(), "11", TEST_PROMPTS)!;
    expect(turn.messages.map((m) => [m.sourceEntryId, m.source])).toEqual([
      ["1", "entry"],
      ["2", "entry"],
      ["9", "branchSummary"],
      ["10", "entry"],
    ]);
  });

  it("is undefined for anything but an assistant entry, and empty for a parentless one", () => {
    expect(reconstructTurn(tree(), "6", TEST_PROMPTS)).toBeUndefined();
    expect(reconstructTurn(tree(), "nope", TEST_PROMPTS)).toBeUndefined();
    const lone = reconstructTurn([assistantEntry("a", null, "hi")], "a", TEST_PROMPTS)!;
    expect(lone.messages).toEqual([]);
    expect(lone.providerPromptTokens).toBeNull();
  });

  it("finds the previous turn on the same path", () => {
    expect(previousAssistantId(tree(), "7")).toBe("4");
    expect(previousAssistantId(tree(), "11")).toBe("2");
    expect(previousAssistantId(tree(), "2")).toBeNull();
  });

  it("the turn view marks the summary, the kept messages and the diff against the previous turn", () => {
    const entries = tree();
    const prev = reconstructTurn(entries, "4", TEST_PROMPTS)!;
    const turn = reconstructTurn(entries, "7", TEST_PROMPTS)!;
    const prevView = buildTurnView(viewInput(prev.messages), entries);
    const view = buildTurnView(viewInput(turn.messages), entries, {
      origin: "reconstructed",
      callId: null,
      entryId: "4",
      refs: prevView.messages,
    });
    expect(view.compaction).toEqual({ entryId: "5", firstKeptEntryId: "3" });
    expect(view.messages.map((m) => [m.kind, m.kept, m.firstKept])).toEqual([
      ["summaries", false, false],
      ["history", true, true],
      ["history", true, false],
      ["new", false, false],
    ]);
    expect(view.segments.map((s) => s.label)).toEqual(["Summaries", "Kept history", "New message"]);
    expect(view.diff!.removed.map((i) => i.sourceEntryId)).toEqual(["1", "2"]);
    expect(view.diff!.added.map((i) => i.sourceEntryId)).toEqual(["5", "4", "6"]);
    expect(view.diff!.unchanged).toBe(1);
    expect(view.notes).toEqual([RECONSTRUCTED_NOTE]);
  });
});

/** sha256 (hex) of `text`: written here with node:crypto, not with the code under test. */
function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}
/** JSON with object keys sorted and undefined members dropped (the messages here hold no U+0000). */
function sortedJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

/**
 * Session-engine.md §2 written out independently: the entries whose messages the model sees at `leafId`.
 * The path root → leaf; with a compaction on it, the latest compaction, then the entries from
 * its firstKeptEntryId (when found before it) up to it, then those after it; messages, custom
 * messages and branch summaries contribute.
 */
function expectedContext(entries: readonly SessionEntry[], leafId: string | null): SessionEntry[] {
  const byId = new Map(entries.map((e) => [e.id, e]));
  const path: SessionEntry[] = [];
  for (let e = leafId ? byId.get(leafId) : undefined; e; e = e.parentId ? byId.get(e.parentId) : undefined) path.unshift(e);
  const contributes = (e: SessionEntry) => e.type === "message" || e.type === "custom_message" || e.type === "branch_summary";
  const c = path.findLastIndex((e) => e.type === "compaction");
  if (c < 0) return path.filter(contributes);
  const compaction = path[c] as Extract<SessionEntry, { type: "compaction" }>;
  const kept = path.findIndex((e, i) => i < c && e.id === compaction.firstKeptEntryId);
  return [compaction, ...path.slice(kept < 0 ? c : kept, c).filter(contributes), ...path.slice(c + 1).filter(contributes)];
}

function viewInput(messages: ReturnType<typeof sourcedContext>) {
  return {
    origin: "reconstructed" as const,
    sessionId: "s",
    callId: null,
    kind: "chat" as const,
    entryId: null,
    model: null,
    contextWindow: null,
    system: null,
    tools: null,
    settings: {},
    messages,
    providerPromptTokens: null,
    response: null,
    startedAt: null,
    durationMs: null,
    pending: null,
    notes: [RECONSTRUCTED_NOTE],
  };
}

describe("matching recorded messages to entries", () => {
  /** What the database gives back: JSONB round trip, keys reordered. */
  const roundTrip = (m: LlmMessage) => JSON.parse(canonicalJson(m)) as LlmMessage;

  it("maps every recorded message back to its entry, the summary through the templates", () => {
    const entries = tree();
    const sent = sourcedContext(entries.slice(0, 6), TEST_PROMPTS).map((m) => roundTrip(m.message));
    const index = buildEntryMatchIndex(entries, TEST_PROMPTS);
    expect(matchRecordedSources(sent, entries, index)).toEqual([
      { sourceEntryId: "5", source: "compaction" },
      { sourceEntryId: "3", source: "entry" },
      { sourceEntryId: "4", source: "entry" },
      { sourceEntryId: "6", source: "entry" },
    ]);
  });

  it("a call made before a prune matches the pruned entry through its original content", () => {
    const original = [text("x".repeat(500))];
    const pruned = messageEntry("t", "1", toolResultMsg("c1", "[Output truncated - 125 tokens]", { prunedAt: 5 }));
    const entries = [userEntry("1", null, "go"), pruned];
    const index = buildEntryMatchIndex(entries, TEST_PROMPTS, new Map([["t", original]]));
    const beforePrune = toolResultMsg("c1", original);
    const afterPrune = convertToLlm([pruned.message], TEST_PROMPTS)[0]!;
    expect(matchRecordedSources([beforePrune, afterPrune], entries, index).map((s) => s.sourceEntryId)).toEqual(["t", null]);
    expect(matchRecordedSources([afterPrune], entries, index).map((s) => s.sourceEntryId)).toEqual(["t"]);
  });

  it("a summary sent with since-edited templates still matches by its text", () => {
    const entries = tree();
    const oldWrapper = { ...TEST_PROMPTS, compactionSummaryContext: "Old words.\n<summary>\n{{summary}}\n</summary>" };
    const [summary] = sourcedContext(entries.slice(0, 6), oldWrapper);
    const index = buildEntryMatchIndex(entries, TEST_PROMPTS);
    expect(matchRecordedSources([summary!.message], entries, index)).toEqual([{ sourceEntryId: "5", source: "compaction" }]);
  });

  it("identical messages map to distinct entries in order", () => {
    const entries = [userEntry("a", null, "same", { timestamp: "2025-01-01T00:00:00.000Z" }), userEntry("b", "a", "same")];
    const message = (entries[0] as { message: LlmMessage }).message;
    const index = buildEntryMatchIndex(entries, TEST_PROMPTS);
    expect(matchRecordedSources([message, message, message], entries, index).map((s) => s.sourceEntryId)).toEqual(["a", "b", null]);
  });
});

describe.skipIf(!hasFixtures)("reconstructTurn on the large pi fixture", () => {
  it("rebuilds every sampled assistant turn exactly, with a source for every message", () => {
    const { tree: sessionTree } = loadSession(readFileSync(LARGE_SESSION, "utf8"));
    const entries = sessionTree.getEntries();
    const assistants = sessionTree.getBranch().filter((e) => e.type === "message" && e.message.role === "assistant");
    expect(assistants.length).toBeGreaterThan(50);
    const step = Math.max(1, Math.floor(assistants.length / 40));
    for (let i = 0; i < assistants.length; i += step) {
      const entry = assistants[i]!;
      const turn = reconstructTurn(entries, entry.id, TEST_PROMPTS)!;
      const expected = expectedContext(entries, entry.parentId);
      expect(turn.messages.map((m) => m.sourceEntryId)).toEqual(expected.map((e) => e.id));
      turn.messages.forEach((m, k) => {
        const source = expected[k]!;
        if (source.type === "compaction") expect(textOf(m.message)).toContain(source.summary);
        else if (source.type === "message" && ["user", "assistant", "toolResult"].includes(source.message.role)) {
          expect(m.message).toEqual(source.message);
        }
      });
      const onPath = new Set(turn.path.map((e) => e.id));
      for (const m of turn.messages) expect(onPath.has(m.sourceEntryId ?? "")).toBe(true);
      const view = buildTurnView(viewInput(turn.messages), entries);
      if (turn.path.some((e) => e.type === "compaction")) expect(view.messages[0]!.source).toBe("compaction");
    }
  });
});
