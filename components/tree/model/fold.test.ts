import { describe, expect, it } from "vitest";
import { type FoldGraph, findFoldRuns, isToolStepEntry, MIN_FOLD_RUN } from "@/components/tree/model/fold";
import {
  assistantEntry,
  messageEntry,
  toolCall,
  toolResultMsg,
  userEntry,
} from "@/test/session-factories";

describe("isToolStepEntry", () => {
  it("counts tool results and tool-call-only assistants (thinking allowed)", () => {
    expect(isToolStepEntry(messageEntry("r", null, toolResultMsg("c", "out")))).toBe(true);
    expect(isToolStepEntry(assistantEntry("a", null, "", { toolCalls: [toolCall("c", "ls")] }))).toBe(true);
    expect(
      isToolStepEntry(assistantEntry("a", null, "  ", { toolCalls: [toolCall("c", "ls")], thinking: "hmm" })),
    ).toBe(true);
  });

  it("rejects assistants with text or without tool calls, and other entries", () => {
    expect(isToolStepEntry(assistantEntry("a", null, "ok", { toolCalls: [toolCall("c", "ls")] }))).toBe(false);
    expect(isToolStepEntry(assistantEntry("a", null, ""))).toBe(false);
    expect(isToolStepEntry(userEntry("u", null, "hi"))).toBe(false);
  });
});

/** A graph from a parent array and the set of tool-step indices. */
function graph(parent: number[], tools: number[], pinned: number[] = [], expanded: number[] = []): FoldGraph {
  const t = new Set(tools);
  const p = new Set(pinned);
  const e = new Set(expanded);
  return {
    size: parent.length,
    parent,
    isToolStep: (i) => t.has(i),
    isPinned: (i) => p.has(i),
    isExpanded: (i) => e.has(i),
  };
}
const runsOf = (g: FoldGraph) => findFoldRuns(g).runs.map((r) => r.members);

describe("findFoldRuns", () => {
  it("folds a chain of at least MIN_FOLD_RUN tool steps", () => {
    expect(MIN_FOLD_RUN).toBe(3);
    // 0 → 1 → 2 → 3 → 4 → 5, tools 1..4
    const g = graph([-1, 0, 1, 2, 3, 4], [1, 2, 3, 4]);
    expect(runsOf(g)).toEqual([[1, 2, 3, 4]]);
    expect([...findFoldRuns(g).runOf]).toEqual([-1, 0, 0, 0, 0, -1]);
    expect(runsOf(graph([-1, 0, 1, 2], [1, 2]))).toEqual([]);
  });

  it("splits at a branch: only the last member may have several children", () => {
    // 0 → 1 → 2 → {3 → 4 → 5, 6}
    const parent = [-1, 0, 1, 2, 3, 4, 2];
    // Candidates are [1, 2] (2 branches) and [3, 4, 5] and [6]; only the long one folds.
    expect(runsOf(graph(parent, [1, 2, 3, 4, 5, 6]))).toEqual([[3, 4, 5]]);
  });

  it("never folds a run holding a pinned or expanded node", () => {
    const parent = [-1, 0, 1, 2, 3];
    expect(runsOf(graph(parent, [1, 2, 3, 4], [3]))).toEqual([]);
    expect(runsOf(graph(parent, [1, 2, 3, 4], [], [1]))).toEqual([]);
    expect(runsOf(graph(parent, [1, 2, 3, 4], [0]))).toEqual([[1, 2, 3, 4]]);
  });

  it("a non-tool node ends the run", () => {
    // 0 → 1 → 2 → 3 (not a tool) → 4 → 5 → 6
    expect(runsOf(graph([-1, 0, 1, 2, 3, 4, 5], [0, 1, 2, 4, 5, 6]))).toEqual([
      [0, 1, 2],
      [4, 5, 6],
    ]);
  });

  it("is linear: a 200,000-step chain folds without recursion", () => {
    const n = 200_000;
    const parent = Array.from({ length: n }, (_, i) => i - 1);
    const g = graph(parent, []);
    const result = findFoldRuns({ ...g, isToolStep: () => true });
    expect(result.runs).toHaveLength(1);
    expect(result.runs[0]!.members).toHaveLength(n);
  });
});
