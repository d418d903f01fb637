/** The panel's pure parts: which turn a selection shows, and the token bar's words and widths. */
import { describe, expect, it } from "vitest";
import type { ModelCallSummary, Segment } from "@/lib/types/inspector";
import {
  assistantEntry,
  assistantMsg,
  compactionEntry,
  messageEntry,
  toolCall,
  toolResultMsg,
  userEntry,
} from "@/test/session-factories";
import { messagePreview, messageText, segmentWidths, tokenBarLabel } from "./format";
import { resolveSelection } from "./selection";

const entries = [
  userEntry("u1", null, "hello"),
  assistantEntry("a1", "u1", "hi"),
  userEntry("u2", "a1", "run it"),
  messageEntry("a2", "u2", assistantMsg("", { toolCalls: [toolCall("c", "bash")] })),
  messageEntry("t2", "a2", toolResultMsg("c", "ok", { toolName: "bash" })),
  assistantEntry("a3", "t2", "done"),
  userEntry("alt", "a1", "other branch"),
  assistantEntry("a4", "alt", "other answer"),
  compactionEntry("c1", "a3", "S", "u2"),
  userEntry("u5", "c1", "unanswered"),
];
const active = new Set(["u1", "a1", "u2", "a2", "t2", "a3", "c1", "u5"]);
const call = (id: string, kind: ModelCallSummary["kind"], entryId: string | null): ModelCallSummary => ({
  id,
  seq: 0,
  kind,
  model: "m",
  entryId,
  startedAt: "",
  durationMs: 0,
  stopReason: "stop",
  errorMessage: null,
  usage: null,
  promptTokens: null,
  messageCount: 1,
});

describe("resolveSelection", () => {
  const pick = (entryId: string | null, calls?: ModelCallSummary[]) => resolveSelection({ entryId, entries, activePath: active, calls });

  it("an assistant entry is its own turn", () => {
    expect(pick("a3")).toEqual({ target: { kind: "entry", entryId: "a3" } });
  });

  it("a user prompt or a tool result shows the turn that first sent it, along the active path", () => {
    expect(pick("u2")).toMatchObject({ target: { kind: "entry", entryId: "a2" } });
    expect(pick("t2")).toMatchObject({ target: { kind: "entry", entryId: "a3" } });
    expect(pick("a1")).toMatchObject({ target: { kind: "entry", entryId: "a1" } });
    expect(pick("u1")).toMatchObject({ target: { kind: "entry", entryId: "a1" } });
    expect(pick("alt")).toMatchObject({ target: { kind: "entry", entryId: "a4" } });
  });

  it("a compaction shows the call that wrote it, when recorded", () => {
    expect(pick("c1", [call("k1", "short", "c1"), call("k2", "history", "c1")])).toMatchObject({ target: { kind: "call", callId: "k2" } });
    expect(pick("c1", [])).toMatchObject({ target: { kind: "preview" } });
  });

  it("an unanswered entry shows the next-turn preview, saying why; an unknown one says so", () => {
    expect(pick("u5")).toEqual({ target: { kind: "preview" }, note: expect.stringContaining("No assistant answered after this entry yet") });
    expect(pick("nope")).toEqual({ hint: "Entry nope is not in this session." });
  });
});

describe("resolveSelection given the caller's index (a session view's byId)", () => {
  it("gives the same turns, and asks the active path only when it walks down from a non-assistant entry", () => {
    const asked: string[] = [];
    const path = {
      has: (id: string) => {
        asked.push(id);
        return active.has(id);
      },
    };
    const byId = new Map(entries.map((e) => [e.id, e]));
    const viaIndex = (entryId: string) => resolveSelection({ entryId, entries: [...entries], byId, activePath: path, calls: undefined });
    expect(viaIndex("a3")).toEqual(pick("a3"));
    expect(asked).toEqual([]);
    for (const id of ["u2", "t2", "alt", "u5"]) expect(viaIndex(id)).toEqual(pick(id));
    expect(asked.length).toBeGreaterThan(0);
  });
  const pick = (entryId: string) => resolveSelection({ entryId, entries, activePath: active, calls: undefined });
});

describe("resolveSelection with nothing selected (the pane opening, docs/ui.md 'The session workspace')", () => {
  const open = (leafId: string | null, list = entries, calls?: ModelCallSummary[]) =>
    resolveSelection({ entryId: null, entries: list, activePath: active, calls, leafId });

  it("shows the latest turn: an assistant leaf's own turn", () => {
    expect(open("a3")).toEqual({ target: { kind: "entry", entryId: "a3" } });
    expect(open("a4")).toEqual({ target: { kind: "entry", entryId: "a4" } });
  });

  it("looks past labels and settings at the end of the path", () => {
    const labelled = [
      ...entries.slice(0, 6),
      { type: "label", id: "l1", parentId: "a3", timestamp: "", targetId: "a3", label: "x" },
      { type: "thinking_level_change", id: "th", parentId: "l1", timestamp: "", thinkingLevel: "high" },
    ] as typeof entries;
    expect(open("th", labelled)).toEqual({ target: { kind: "entry", entryId: "a3" } });
  });

  it("is never empty: an unanswered leaf, an unrecorded summary or an empty session opens the preview", () => {
    for (const selection of [open("u5"), open("c1", entries, []), open(null, []), open("gone", [])]) {
      expect(selection).toMatchObject({ target: { kind: "preview" } });
      expect(selection).not.toHaveProperty("hint");
    }
    expect(open("c1", entries, [call("k2", "history", "c1")])).toMatchObject({ target: { kind: "call", callId: "k2" } });
  });
});

describe("token bar words and widths", () => {
  const segments: Segment[] = [
    { kind: "system", label: "System prompt", tokens: 1000, count: 1 },
    { kind: "history", label: "History", tokens: 9000, count: 12 },
    { kind: "new", label: "New message", tokens: 1, count: 1 },
  ];

  it("lists every segment's tokens in the accessible label", () => {
    expect(tokenBarLabel(segments, 10_001, 200_000)).toBe(
      "Context window: System prompt 1,000 tokens, History 9,000 tokens, New message 1 token; 10,001 of 200,000 tokens in the context window (estimated)",
    );
    expect(tokenBarLabel([], 0, null)).toBe("Context window: nothing sent; 0 tokens (estimated)");
  });

  it("scales to the window, keeps tiny segments visible, and falls back to the total", () => {
    expect(segmentWidths(segments, 10_001, 200_000)).toEqual([0.5, 4.5, 0.5]);
    const [a, b] = segmentWidths(segments.slice(0, 2), 10_000, null);
    expect([a, b]).toEqual([10, 90]);
    // A prompt larger than the window (an overflow) is scaled to itself.
    expect(segmentWidths(segments.slice(0, 2), 10_000, 5_000)).toEqual([10, 90]);
  });

  it("shows message text exactly, with tool calls and images named", () => {
    const m = assistantMsg("look", { toolCalls: [toolCall("c9", "read", { path: "a" })], thinking: "hmm" });
    expect(messageText(m)).toBe('[thinking]\nhmm\n\nlook\n\n[tool call read c9]\n{\n  "path": "a"\n}');
    expect(messagePreview(toolResultMsg("c9", "x".repeat(300), { toolName: "read" }), 20)).toBe(`read: ${"x".repeat(13)}…`);
  });
});

describe("resolveSelection over a session that grows", () => {
  it("answers from the entries it is given, each list indexed on its own", () => {
    const before = [userEntry("q1", null, "hello")];
    const asked = { entryId: "q1", activePath: new Set(["q1"]), calls: undefined };
    expect(resolveSelection({ ...asked, entries: before })).toMatchObject({ target: { kind: "preview" } });
    // Asked again on the same list: the same answer.
    expect(resolveSelection({ ...asked, entries: before })).toMatchObject({ target: { kind: "preview" } });
    // The next version of the session has the answer: the new list is indexed, not the old one reused.
    const after = [...before, assistantEntry("r1", "q1", "hi")];
    expect(resolveSelection({ ...asked, activePath: new Set(["q1", "r1"]), entries: after })).toMatchObject({ target: { kind: "entry", entryId: "r1" } });
    expect(resolveSelection({ ...asked, entryId: "r1", entries: after })).toEqual({ target: { kind: "entry", entryId: "r1" } });
  });
});

