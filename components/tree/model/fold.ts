/**
 * Folding of tool-step runs on the canvas ("12 tool steps" pills, ui.md).
 * Pure: no React, no DOM. Linear in the number of visible nodes.
 *
 * Contract:
 * - A tool step is a toolResult message, or an assistant message whose content is only tool
 *   calls and thinking (at least one tool call, no non-whitespace text).
 * - A run is a maximal chain v1 → v2 → … → vk of visible tool steps where each v(i+1) is the
 *   ONLY visible child of v(i) (a single-child chain; v1 may have siblings, vk may branch).
 * - A run folds into one node when k >= MIN_FOLD_RUN, unless one of its members is pinned
 *   (the current leaf, the selected entry, a search match, a labelled entry: the caller
 *   decides) or expanded by the user.
 */

export const MIN_FOLD_RUN = 3;

/** Whether an entry is a tool step (see the contract above); the skeleton carries it as FLAG.toolStep. */
export { isToolStepEntry } from "@/lib/session-view/tree-skeleton";

/** The visible graph, nodes in display (pre-)order; parents precede their children. */
export interface FoldGraph {
  size: number;
  /** Index of the display parent (nearest visible ancestor), or -1 for a root. */
  parent: ArrayLike<number>;
  isToolStep: (i: number) => boolean;
  /** Leaf, selected entry, search match, labelled entry: a run containing one never folds. */
  isPinned: (i: number) => boolean;
  /** Unfolded by the user: a run containing one is never folded. */
  isExpanded: (i: number) => boolean;
}

export interface FoldRun {
  /** Member indices, top to bottom. */
  members: number[];
}

export interface FoldResult {
  /** Only the runs that fold. */
  runs: FoldRun[];
  /** For each node, the index into `runs` of the folded run holding it, or -1. */
  runOf: Int32Array;
}

/** Finds the folded runs of a visible graph (see the module contract). O(size). */
export function findFoldRuns(g: FoldGraph, minRun: number = MIN_FOLD_RUN): FoldResult {
  const childCount = new Int32Array(g.size);
  for (let i = 0; i < g.size; i++) {
    const p = g.parent[i]!;
    if (p >= 0) childCount[p]!++;
  }

  // Candidate runs: a tool step joins its parent's run when it is that parent's only child.
  const candidateOf = new Int32Array(g.size).fill(-1);
  const candidates: { members: number[]; blocked: boolean }[] = [];
  for (let i = 0; i < g.size; i++) {
    if (!g.isToolStep(i)) continue;
    const p = g.parent[i]!;
    let c = p >= 0 && childCount[p] === 1 ? candidateOf[p]! : -1;
    if (c < 0) {
      c = candidates.length;
      candidates.push({ members: [], blocked: false });
    }
    candidateOf[i] = c;
    const run = candidates[c]!;
    run.members.push(i);
    if (g.isPinned(i) || g.isExpanded(i)) run.blocked = true;
  }

  const runOf = new Int32Array(g.size).fill(-1);
  const runs: FoldRun[] = [];
  for (const c of candidates) {
    if (c.blocked || c.members.length < minRun) continue;
    for (const m of c.members) runOf[m] = runs.length;
    runs.push({ members: c.members });
  }
  return { runs, runOf };
}
