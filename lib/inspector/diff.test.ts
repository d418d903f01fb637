/** diffCalls and classify: what changed between two turns, and the token bar's kinds. */
import { describe, expect, it } from "vitest";
import { classify } from "@/lib/inspector/classify";
import { boundDiff, DIFF_LIST_MAX, diffCalls } from "@/lib/inspector/diff";
import type { MessageRef } from "@/lib/types/inspector";

function ref(hash: string, sourceEntryId: string | null = null, extra: Partial<MessageRef> = {}): MessageRef {
  return { hash, sourceEntryId, source: sourceEntryId ? "entry" : "none", role: "user", tokens: 10, ...extra };
}

describe("diffCalls", () => {
  it("a compaction of a long session: the view carries the first items of each list and the full counts", () => {
    const prev = Array.from({ length: 5000 }, (_, i) => ref(`h${i}`, String(i)));
    const next = [ref("summary", "c", { source: "compaction" }), ...prev.slice(4990)];
    const full = diffCalls(prev, next);
    expect(full.counts).toEqual({ added: 1, removed: 4990, changed: 0 });
    expect(full.removed).toHaveLength(4990);
    const bounded = boundDiff(full);
    expect(bounded.counts).toEqual(full.counts);
    expect(bounded.removed).toHaveLength(DIFF_LIST_MAX);
    expect(bounded.removed.map((i) => i.sourceEntryId)).toEqual(full.removed.slice(0, DIFF_LIST_MAX).map((i) => i.sourceEntryId));
    expect(bounded.added).toEqual(full.added);
    expect(bounded.unchanged).toBe(10);
  });

  it("a turn that extends the previous list only adds", () => {
    const prev = [ref("h1", "1"), ref("h2", "2")];
    const next = [...prev, ref("h3", "3"), ref("h4", "4")];
    const d = diffCalls(prev, next);
    expect(d.added.map((i) => i.sourceEntryId)).toEqual(["3", "4"]);
    expect(d.added.map((i) => i.index)).toEqual([2, 3]);
    expect(d.removed).toEqual([]);
    expect(d.changed).toEqual([]);
    expect(d.unchanged).toBe(2);
  });

  it("a compaction removes the summarized messages and adds its summary", () => {
    const prev = [ref("h1", "1"), ref("h2", "2"), ref("h3", "3"), ref("h4", "4")];
    const next = [ref("s", "c", { source: "compaction" }), ref("h3", "3"), ref("h4", "4"), ref("h5", "5")];
    const d = diffCalls(prev, next);
    expect(d.removed.map((i) => [i.sourceEntryId, i.index])).toEqual([
      ["1", 0],
      ["2", 1],
    ]);
    expect(d.added.map((i) => i.sourceEntryId)).toEqual(["c", "5"]);
    expect(d.unchanged).toBe(2);
  });

  it("the same entry with a new hash is changed (a pruned tool result)", () => {
    const prev = [ref("h1", "1"), ref("big", "2", { role: "toolResult", tokens: 9000 })];
    const next = [ref("h1", "1"), ref("notice", "2", { role: "toolResult", tokens: 8 }), ref("h3", "3")];
    const d = diffCalls(prev, next);
    expect(d.changed).toEqual([
      {
        before: { index: 1, role: "toolResult", hash: "big", sourceEntryId: "2", tokens: 9000 },
        after: { index: 1, role: "toolResult", hash: "notice", sourceEntryId: "2", tokens: 8 },
      },
    ]);
    expect(d.added.map((i) => i.hash)).toEqual(["h3"]);
    expect(d.removed).toEqual([]);
  });

  it("matches by hash when sources are unknown, counting duplicates", () => {
    const prev = [ref("a"), ref("b"), ref("a")];
    const next = [ref("a"), ref("a"), ref("a"), ref("c")];
    const d = diffCalls(prev, next);
    expect(d.unchanged).toBe(2);
    expect(d.added.map((i) => [i.hash, i.index])).toEqual([
      ["a", 2],
      ["c", 3],
    ]);
    expect(d.removed.map((i) => i.hash)).toEqual(["b"]);
  });

  it("equal content from two different known entries is not the same message", () => {
    const d = diffCalls([ref("same", "1")], [ref("same", "2")]);
    expect(d.added.map((i) => i.sourceEntryId)).toEqual(["2"]);
    expect(d.removed.map((i) => i.sourceEntryId)).toEqual(["1"]);
  });

  it("a dropped error message before a retry is removed", () => {
    const prev = [ref("u", "1"), ref("err", "2", { role: "assistant" }), ref("u2", "3")];
    const next = [ref("u", "1"), ref("u2", "3")];
    const d = diffCalls(prev, next);
    expect(d.removed.map((i) => i.sourceEntryId)).toEqual(["2"]);
    expect(d.added).toEqual([]);
  });
});

describe("classify", () => {
  it("splits system prompt, summaries, kept history, tool results and the new message", () => {
    const messages: MessageRef[] = [
      ref("s", "c", { source: "compaction", tokens: 100 }),
      ref("b", "b", { source: "branchSummary", tokens: 20 }),
      ref("u1", "1", { tokens: 5 }),
      ref("a1", "2", { role: "assistant", tokens: 7 }),
      ref("t1", "3", { role: "toolResult", tokens: 50 }),
      ref("a2", "4", { role: "assistant", tokens: 3 }),
      ref("u2", "5", { tokens: 4 }),
    ];
    const { kinds, segments, totalTokens } = classify(messages, { system: "x".repeat(40), compacted: true });
    expect(kinds).toEqual(["summaries", "summaries", "history", "history", "toolResults", "history", "new"]);
    expect(segments).toEqual([
      { kind: "system", label: "System prompt", tokens: 10, count: 1 },
      { kind: "summaries", label: "Summaries", tokens: 120, count: 2 },
      { kind: "history", label: "Kept history", tokens: 15, count: 3 },
      { kind: "toolResults", label: "Tool results", tokens: 50, count: 1 },
      { kind: "new", label: "New message", tokens: 4, count: 1 },
    ]);
    expect(totalTokens).toBe(199);
  });

  it("in a tool loop the new message is the trailing run of tool results", () => {
    const messages = [
      ref("u", "1"),
      ref("a", "2", { role: "assistant" }),
      ref("t1", "3", { role: "toolResult" }),
      ref("t2", "4", { role: "toolResult" }),
    ];
    const { kinds, segments } = classify(messages, { tools: [{ name: "read", description: "Read a file", inputSchema: {} }] });
    expect(kinds).toEqual(["history", "history", "new", "new"]);
    expect(segments.map((s) => s.label)).toEqual(["System prompt and tools", "History", "New message"]);
    expect(segments[0]!.tokens).toBeGreaterThan(0);
  });

  it("an empty list has no segments", () => {
    expect(classify([])).toEqual({ kinds: [], segments: [], totalTokens: 0 });
  });
});
