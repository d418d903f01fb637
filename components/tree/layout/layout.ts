/**
 * Layered tidy-tree layout of the session canvas, written for trees (no dagre/elk).
 * Pure: no React, no DOM. O(n) time and memory, iterative (an explicit stack), deterministic.
 *
 * Algorithm: rows are depths (y = depth × ROW_GAP, top to bottom in time). Leaves of the
 * visible tree take consecutive columns in pre-order, using the given node order as the
 * sibling order (toFlow emits session-engine.md §16.1 order: the subtree holding the current leaf first),
 * and every parent sits in the column of its FIRST child. Hence a node's column is the number
 * of leaves visited before it in pre-order.
 *
 * Guarantees (each pinned by layout.test.ts):
 * - the nodes of one column form a single parent → first-child chain with distinct depths,
 *   and every node fits its column and row slot, so no two nodes overlap;
 * - the active path (root → current leaf) is a chain of first children, so it is one
 *   straight vertical line (column 0 when the leaf's root comes first);
 * - the same input always gives the same output.
 */
import type { TreeEdge, TreeNode } from "@/components/tree/types";
import { runSteps, type Steps, tick } from "@/lib/session/stepwise";

/** Column width: the widest node. */
export const NODE_WIDTH = 280;
/** Height of entry, compaction and branch-summary nodes (the row slot). */
export const NODE_HEIGHT = 76;
export const FOLD_WIDTH = 200;
export const FOLD_HEIGHT = 40;
/** Distance between the tops of two rows. */
export const ROW_GAP = 112;
/** Distance between the left edges of two columns (room for the dashed "first kept" edges). */
export const COL_GAP = 340;
/** Band padding around the summarised nodes. */
export const BAND_PAD_X = 14;
export const BAND_PAD_TOP = 22;
export const BAND_PAD_BOTTOM = 10;

export function nodeSize(type: TreeNode["type"]): { width: number; height: number } {
  return type === "fold" ? { width: FOLD_WIDTH, height: FOLD_HEIGHT } : { width: NODE_WIDTH, height: NODE_HEIGHT };
}

/** A shaded rectangle behind one contiguous column run of a compaction's summarised nodes. */
export interface BandRect {
  id: string;
  compactionId: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface TreeLayout {
  /** Positioned copies of the input nodes, in input order. */
  nodes: TreeNode[];
  bands: BandRect[];
  /** Node id → index into `nodes`. */
  index: Map<string, number>;
  /** Index of each node's tree parent, or -1. */
  parent: Int32Array;
  /** Children of node i are `childList[childStart[i] .. childStart[i + 1])`, in sibling order. */
  childStart: Int32Array;
  childList: Int32Array;
  /** Indices of the roots, in sibling order. */
  roots: number[];
  column: Int32Array;
  depth: Int32Array;
  /** Node indices in pre-order (the order a column's nodes are consecutive in). */
  order: readonly number[];
  bounds: { x: number; y: number; width: number; height: number };
}

/** Lays out `nodes` using the `tree` edges of `edges` (other edge kinds are ignored). */
export function layoutTree(flow: { nodes: readonly TreeNode[]; edges: readonly TreeEdge[] }): TreeLayout {
  return runSteps(layoutTreeSteps(flow));
}

/** layoutTree as steps (lib/session/stepwise.ts). */
export function* layoutTreeSteps(flow: { nodes: readonly TreeNode[]; edges: readonly TreeEdge[] }): Steps<TreeLayout> {
  const { nodes, edges } = flow;
  const n = nodes.length;
  const index = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    if (tick(i)) yield;
    index.set(nodes[i]!.id, i);
  }

  const parent = new Int32Array(n).fill(-1);
  for (let k = 0; k < edges.length; k++) {
    if (tick(k)) yield;
    const e = edges[k]!;
    if (e.data?.kind === "firstKept") continue;
    const s = index.get(e.source);
    const t = index.get(e.target);
    if (s === undefined || t === undefined || s === t || parent[t] !== -1) continue;
    parent[t] = s;
  }

  // Children in CSR form, in node (sibling) order.
  const childStart = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) if (parent[i]! >= 0) childStart[parent[i]! + 1]!++;
  for (let i = 0; i < n; i++) childStart[i + 1]! += childStart[i]!;
  const fill = childStart.slice(0, n);
  const childList = new Int32Array(childStart[n]!);
  for (let i = 0; i < n; i++) {
    const p = parent[i]!;
    if (p >= 0) childList[fill[p]!++] = i;
  }

  const roots: number[] = [];
  for (let i = 0; i < n; i++) if (parent[i] === -1) roots.push(i);

  // Pre-order walk; a node left unvisited (only possible on a parent cycle) starts a new walk.
  const column = new Int32Array(n);
  const depth = new Int32Array(n);
  const visited = new Uint8Array(n);
  const order: number[] = [];
  let leaves = 0;
  const stack: number[] = [];
  const walk = (start: number) => {
    stack.push(start);
    while (stack.length > 0) {
      const i = stack.pop()!;
      if (visited[i]) continue;
      visited[i] = 1;
      const p = parent[i]!;
      depth[i] = p >= 0 && visited[p] ? depth[p]! + 1 : 0;
      column[i] = leaves;
      order.push(i);
      let pushed = 0;
      for (let k = childStart[i + 1]! - 1; k >= childStart[i]!; k--) {
        const c = childList[k]!;
        if (!visited[c]) {
          stack.push(c);
          pushed++;
        }
      }
      if (pushed === 0) leaves++;
    }
  };
  yield;
  for (const r of roots) walk(r);
  yield;
  for (let i = 0; i < n; i++) {
    if (!visited[i]) {
      parent[i] = -1;
      roots.push(i);
      walk(i);
    }
  }

  const positioned: TreeNode[] = new Array(n);
  let maxX = 0;
  let maxY = 0;
  for (let i = 0; i < n; i++) {
    if (tick(i)) yield;
    const node = nodes[i]!;
    const { width, height } = nodeSize(node.type);
    const x = column[i]! * COL_GAP + (NODE_WIDTH - width) / 2;
    const y = depth[i]! * ROW_GAP + (NODE_HEIGHT - height) / 2;
    positioned[i] = { ...node, position: { x, y } } as TreeNode;
    maxX = Math.max(maxX, column[i]! * COL_GAP + NODE_WIDTH);
    maxY = Math.max(maxY, depth[i]! * ROW_GAP + NODE_HEIGHT);
  }

  yield;
  return {
    nodes: positioned,
    bands: computeBands(nodes, order, column, depth),
    order,
    index,
    parent,
    childStart,
    childList,
    roots,
    column,
    depth,
    bounds: { x: 0, y: 0, width: maxX, height: maxY },
  };
}

/**
 * One band per maximal run of a compaction's summarised nodes that are vertically adjacent
 * in one column. Nodes of a column are consecutive in pre-order, so an open band per
 * compaction is extended while the next summarised node sits right below its last one.
 * `column` is any key of a drawn column and `xOf` its left edge (wrap-layout.ts passes the
 * column within its slab); `depth` the row within it.
 */
export function computeBands(
  nodes: readonly TreeNode[],
  order: readonly number[],
  column: ArrayLike<number>,
  depth: ArrayLike<number>,
  xOf: (column: number) => number = (c) => c * COL_GAP,
): BandRect[] {
  const bands: BandRect[] = [];
  const open = new Map<string, { col: number; top: number; bottom: number }>();
  const counts = new Map<string, number>();
  const close = (compactionId: string) => {
    const o = open.get(compactionId);
    if (!o) return;
    const n = counts.get(compactionId) ?? 0;
    counts.set(compactionId, n + 1);
    bands.push({
      id: `band:${compactionId}:${n}`,
      compactionId,
      x: xOf(o.col) - BAND_PAD_X,
      y: o.top * ROW_GAP - BAND_PAD_TOP,
      width: NODE_WIDTH + 2 * BAND_PAD_X,
      height: (o.bottom - o.top) * ROW_GAP + NODE_HEIGHT + BAND_PAD_TOP + BAND_PAD_BOTTOM,
    });
    open.delete(compactionId);
  };
  for (const i of order) {
    const ids = nodes[i]!.data.summarisedBy;
    const col = column[i]!;
    const d = depth[i]!;
    for (const c of ids) {
      const o = open.get(c);
      if (o && o.col === col && o.bottom === d - 1) {
        o.bottom = d;
        continue;
      }
      close(c);
      open.set(c, { col, top: d, bottom: d });
    }
  }
  for (const c of [...open.keys()]) close(c);
  return bands;
}
