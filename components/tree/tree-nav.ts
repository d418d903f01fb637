/**
 * Keyboard movement and selection rules of the tree canvas and list (session-engine.md §16.3
 * "Selection", §16.6; ui.md "Keyboard"). Pure: no React, no DOM.
 *
 * Selection contract: `selectedId` is an entry id, or a fold id (`fold:<first entry id>`)
 * or turn id (`turn:<first entry id>`) when the user moved onto a folded run or an overview turn. A selected ENTRY is never left inside a fold (the
 * canvas unfolds its run, as toFlow would with `selectedId`), and when a filter or search
 * hides it, the selection moves to its nearest visible ancestor, else the last visible row
 * (engine `resolveSelection`).
 */
import type { TreeLayout } from "@/components/tree/layout/layout";
import { entryIdOf, isFoldId, isGroupId } from "@/components/tree/types";
import type { TreeRow } from "@/lib/session/tree/tree-flatten";
import { resolveSelection } from "@/lib/session/tree/tree-graph";

export type CanvasMove = "parent" | "child" | "prev-sibling" | "next-sibling";

const ARROWS: Record<string, CanvasMove> = {
  ArrowUp: "parent",
  ArrowDown: "child",
  ArrowLeft: "prev-sibling",
  ArrowRight: "next-sibling",
};

/** The canvas move of an arrow key, if it is one. */
export function arrowMove(key: string): CanvasMove | undefined {
  return ARROWS[key];
}

/**
 * The node reached from `fromId` along parent / first child / siblings (tree order). From
 * no selection (or an unknown id) any move lands on the first root. Moving past an end stays.
 */
export function moveInTree(layout: TreeLayout, fromId: string | null | undefined, move: CanvasMove): string | null {
  const at = fromId == null ? undefined : layout.index.get(fromId);
  if (at === undefined) {
    const root = layout.roots[0];
    return root === undefined ? null : layout.nodes[root]!.id;
  }
  const idOf = (i: number) => layout.nodes[i]!.id;
  const p = layout.parent[at]!;
  if (move === "parent") return p >= 0 ? idOf(p) : idOf(at);
  if (move === "child") {
    const start = layout.childStart[at]!;
    return start < layout.childStart[at + 1]! ? idOf(layout.childList[start]!) : idOf(at);
  }
  const siblings: ArrayLike<number> =
    p >= 0 ? layout.childList.subarray(layout.childStart[p]!, layout.childStart[p + 1]!) : layout.roots;
  let k = 0;
  while (k < siblings.length && siblings[k] !== at) k++;
  const next = move === "prev-sibling" ? k - 1 : k + 1;
  return next >= 0 && next < siblings.length ? idOf(siblings[next]!) : idOf(at);
}

/** Row movement in the list: ±1 wraps at the ends (§16.6); pages clamp. */
export function moveInRows(visible: readonly TreeRow<{ id: string }>[], fromId: string | null | undefined, delta: number, wrap: boolean) {
  const n = visible.length;
  if (n === 0) return null;
  const id = fromId == null ? undefined : entryIdOf(fromId);
  const at = id === undefined ? -1 : visible.findIndex((r) => r.entry.id === id);
  if (at < 0) return visible[delta >= 0 ? 0 : n - 1]!.entry.id;
  const to = wrap ? (((at + delta) % n) + n) % n : Math.min(n - 1, Math.max(0, at + delta));
  return visible[to]!.entry.id;
}

export type SelectionFix =
  | { kind: "keep" }
  | { kind: "select"; id: string }
  /** Unfold the run holding this entry (add it to `expanded`), then look again. */
  | { kind: "unfold"; entryId: string };

/**
 * What to do with `selectedId` after the graph changed (see the module contract).
 * `hasNode` tells whether a node id exists in the current graph; `nodeOf` maps visible
 * entries to the node showing them.
 */
export function reconcileSelection(
  selectedId: string | null | undefined,
  graph: { rows: readonly TreeRow<{ id: string }>[]; nodeOf: ReadonlyMap<string, string>; hasNode: (id: string) => boolean },
): SelectionFix {
  if (selectedId == null) return { kind: "keep" };
  if (isFoldId(selectedId) || isGroupId(selectedId)) {
    return graph.hasNode(selectedId) ? { kind: "keep" } : { kind: "select", id: entryIdOf(selectedId) };
  }
  const shown = graph.nodeOf.get(selectedId);
  if (shown === selectedId) return { kind: "keep" };
  if (shown !== undefined) return { kind: "unfold", entryId: selectedId };
  const next = resolveSelection(graph.rows, selectedId);
  return next === null || next === selectedId ? { kind: "keep" } : { kind: "select", id: next };
}

/** Footer position: the 0-based index of the selection among visible rows (folds: first entry). */
export function footerIndex(visible: readonly TreeRow<{ id: string }>[], selectedId: string | null | undefined): number {
  if (selectedId == null) return -1;
  const id = entryIdOf(selectedId);
  return visible.findIndex((r) => r.entry.id === id);
}
