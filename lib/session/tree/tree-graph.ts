/**
 * Graph view and selection rules of the tree navigator (session-engine.md §16.3 "Graph edges",
 * "Selection"). Pure: no network, disk or database access. Works on the rows of
 * `flattenTree`, whose `parentIndex` always points backwards, so one forward pass resolves
 * every nearest visible ancestor in linear time.
 */
import { flattenTree, type TreeNodeLike, type TreeRow, type TreeViewOptions } from "@/lib/session/tree/tree-flatten";
import type { SessionEntry } from "@/lib/session/types";

export interface VisibleGraphNode<E = SessionEntry> {
  id: string;
  row: TreeRow<E>;
}

export interface VisibleGraphEdge {
  id: string;
  /** The nearest visible ancestor. */
  source: string;
  target: string;
  /** Both ends lie on the root→leaf path. */
  isActive: boolean;
}

export interface VisibleGraph<E = SessionEntry> {
  nodes: VisibleGraphNode<E>[];
  edges: VisibleGraphEdge[];
}

/**
 * For each row, the index of its nearest visible strict ancestor, or -1. Parents precede
 * their children in `rows`, so the answer for a parent is known when its child is reached.
 */
export function nearestVisibleAncestors(rows: readonly TreeRow<{ id: string }>[]): Int32Array {
  const out = new Int32Array(rows.length).fill(-1);
  for (let i = 0; i < rows.length; i++) {
    const p = rows[i]!.parentIndex;
    if (p < 0) continue;
    out[i] = rows[p]!.visible ? p : out[p]!;
  }
  return out;
}

/**
 * Visible nodes, in display order, and one edge per visible node that has a visible
 * ancestor, pointing from that nearest visible ancestor (§16.3 "Graph edges").
 */
export function graphFromRows<E extends { id: string }>(rows: readonly TreeRow<E>[]): VisibleGraph<E> {
  const ancestors = nearestVisibleAncestors(rows);
  const nodes: VisibleGraphNode<E>[] = [];
  const edges: VisibleGraphEdge[] = [];
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    if (!row.visible) continue;
    nodes.push({ id: row.entry.id, row });
    const a = ancestors[i]!;
    if (a < 0) continue;
    const source = rows[a]!.entry.id;
    edges.push({ id: `${source}->${row.entry.id}`, source, target: row.entry.id, isActive: row.isActive });
  }
  return { nodes, edges };
}

/** `flattenTree` + `graphFromRows`: the canvas graph for a filter, search and leaf. */
export function visibleGraph(roots: readonly TreeNodeLike[], opts: TreeViewOptions): VisibleGraph {
  return graphFromRows(flattenTree(roots, opts));
}

/**
 * Selection after a filter or search change (§16.3): the selected entry if visible, else its
 * nearest visible ancestor, else the last visible row; `null` when no row is visible.
 * For the initial selection pass the current leaf as `selectedId`.
 */
export function resolveSelection(rows: readonly TreeRow<{ id: string }>[], selectedId: string | null | undefined): string | null {
  let at = selectedId == null ? -1 : rows.findIndex((r) => r.entry.id === selectedId);
  while (at >= 0) {
    const row = rows[at]!;
    if (row.visible) return row.entry.id;
    at = row.parentIndex;
  }
  for (let i = rows.length - 1; i >= 0; i--) {
    const row = rows[i]!;
    if (row.visible) return row.entry.id;
  }
  return null;
}

/** The initial selection: the current leaf or its nearest visible ancestor (§16.3). */
export function initialSelection(rows: readonly TreeRow<{ id: string }>[], leafId: string | null | undefined): string | null {
  return resolveSelection(rows, leafId);
}

/** 0-based position of an entry among the visible rows, or -1 (for formatFooter). */
export function visibleIndexOf(rows: readonly TreeRow<{ id: string }>[], id: string | null | undefined): number {
  if (id == null) return -1;
  let n = 0;
  for (const row of rows) {
    if (!row.visible) continue;
    if (row.entry.id === id) return n;
    n++;
  }
  return -1;
}
