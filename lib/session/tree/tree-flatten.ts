/**
 * Flattens a session tree (`SessionTree.getTree()` roots) into navigator rows: order, depth,
 * active path, row text and visibility (session-engine.md §16.1–16.3).
 * Pure: no network, disk or database access. Traversal is iterative (an explicit stack), so a
 * 100,000-deep single chain cannot overflow the call stack, and each node is visited a
 * constant number of times (sibling sorting aside), so the cost is linear in session size.
 */
import {
  isEntryVisible,
  parseSearch,
  type TreeFilter,
} from "@/lib/session/tree/tree-filter";
import { runSteps, type Steps, tick } from "@/lib/session/stepwise";
import { addToolCalls, rowText } from "@/lib/session/tree/tree-row-text";
import type { SessionEntry, ToolCall } from "@/lib/session/types";

/** The node shape of `SessionTree.getTree()` (session-engine.md §1.6); `E` is a full entry or its skeleton. */
export interface TreeNodeLike<E = SessionEntry> {
  entry: E;
  children: readonly TreeNodeLike<E>[];
  label?: string;
}

export interface TreeRow<E = SessionEntry> {
  entry: E;
  /** Indentation steps (§16.1 list indentation). */
  depth: number;
  /** Row text without the label prefix (§16.2); see displayText for the `[label] ` form. */
  text: string;
  label?: string;
  /** On the path from the root to the current leaf (§16.1). */
  isActive: boolean;
  /** The current leaf. */
  isLeaf: boolean;
  /** Shown under the current filter and search (§16.3). */
  visible: boolean;
  /** Index in the rows array of the tree parent; -1 for roots. Parents precede children. */
  parentIndex: number;
  childCount: number;
}

export interface TreeViewOptions {
  /** The current leaf; `null`/`undefined` means no active path (e.g. after resetLeaf). */
  leafId: string | null | undefined;
  filter?: TreeFilter;
  search?: string;
  /** Tool calls by id; built from the tree itself when omitted. */
  toolCallsById?: ReadonlyMap<string, ToolCall>;
}

/** What the generic flattening needs to know about one row's entry (full entry or skeleton). */
export interface RowRules<E> {
  id(entry: E): string;
  /** Timestamp in ms (NaN: unknown, sorts as 0). */
  time(entry: E): number;
  /** §16.2 row text. */
  text(entry: E): string;
  /** §16.3 visibility (hidden assistants with the leaf exempt, filter, search). */
  visible(entry: E, label: string | undefined, isLeaf: boolean): boolean;
}

function timeOf<E>(node: TreeNodeLike<E>, rules: RowRules<E>): number {
  const t = rules.time(node.entry);
  return Number.isNaN(t) ? 0 : t;
}

/**
 * §16.1: the sibling whose subtree holds the current leaf first, then the others by
 * timestamp (stable, so ties keep their given order). `getTree()` children are already in
 * timestamp order; roots may not be, so both are sorted here.
 */
function orderSiblings<E>(nodes: readonly TreeNodeLike<E>[], active: ReadonlySet<TreeNodeLike<E>>, rules: RowRules<E>): readonly TreeNodeLike<E>[] {
  if (nodes.length <= 1) return nodes;
  const keyed = nodes.map((node, i) => ({ node, i, t: timeOf(node, rules) }));
  keyed.sort((a, b) => a.t - b.t || a.i - b.i);
  const ordered = keyed.map((k) => k.node);
  const at = ordered.findIndex((n) => active.has(n));
  if (at > 0) {
    const [hit] = ordered.splice(at, 1);
    if (hit) ordered.unshift(hit);
  }
  return ordered;
}

/** First pass: find the leaf and its ancestors (structurally, via the tree). */
function* scanTree<E>(
  roots: readonly TreeNodeLike<E>[],
  leafId: string | null | undefined,
  rules: RowRules<E>,
): Steps<{ active: Set<TreeNodeLike<E>>; leaf: TreeNodeLike<E> | undefined }> {
  const parentOf = new Map<TreeNodeLike<E>, TreeNodeLike<E> | undefined>();
  let leaf: TreeNodeLike<E> | undefined;
  const stack: TreeNodeLike<E>[] = [];
  for (const root of roots) {
    parentOf.set(root, undefined);
    stack.push(root);
  }
  let n = 0;
  while (stack.length > 0) {
    if (tick(n++)) yield;
    const node = stack.pop()!;
    if (leafId != null && rules.id(node.entry) === leafId) leaf = node;
    for (const child of node.children) {
      if (parentOf.has(child)) continue; // defensive: a node reachable twice is laid out once
      parentOf.set(child, node);
      stack.push(child);
    }
  }
  const active = new Set<TreeNodeLike<E>>();
  for (let n = leaf; n && !active.has(n); n = parentOf.get(n)) active.add(n);
  return { active, leaf };
}

/** Every tool call of the tree's assistant entries, by id (toolResult row texts, §16.2). */
function collectToolCalls(roots: readonly TreeNodeLike[]): Map<string, ToolCall> {
  const toolCalls = new Map<string, ToolCall>();
  const stack = [...roots];
  const seen = new Set<TreeNodeLike>();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (seen.has(node)) continue;
    seen.add(node);
    addToolCalls(node.entry, toolCalls);
    for (const child of node.children) stack.push(child);
  }
  return toolCalls;
}

/**
 * Flattens a session tree of full entries into rows in display order (pre-order, active
 * subtree first); see flattenRows for the rules.
 */
export function flattenTree(roots: readonly TreeNodeLike[], opts: TreeViewOptions): TreeRow[] {
  const ctx = { toolCallsById: opts.toolCallsById ?? collectToolCalls(roots) };
  const filter = opts.filter ?? "default";
  const tokens = parseSearch(opts.search);
  return flattenRows(roots, opts.leafId, {
    id: (e) => e.id,
    time: (e) => Date.parse(e.timestamp),
    text: (e) => rowText(e, ctx),
    visible: (e, label, isLeaf) => isEntryVisible(e, label, { filter, tokens, isLeaf }),
  });
}

/**
 * Flattens a tree into rows in display order (pre-order, active subtree first).
 *
 * Indentation (§16.1), as read here — the reference navigator's rule:
 * - a node with more than one child indents all its children one step;
 * - a node that is itself a child of such a branching node ("first generation after a
 *   branch") indents its single child one more step, but only when its own depth is > 0;
 * - otherwise a single child keeps its parent's depth, so plain chains stay flat.
 * Several roots are children of a virtual root that branches, so they start at depth 1.
 * Example: A→B, B→{C,D}, C→E→F gives A 0, B 0, C 1, E 2, F 2, D 1.
 */
export function flattenRows<E>(roots: readonly TreeNodeLike<E>[], leafId: string | null | undefined, rules: RowRules<E>): TreeRow<E>[] {
  return runSteps(flattenRowsSteps(roots, leafId, rules));
}

/** flattenRows as steps (stepwise.ts). */
export function* flattenRowsSteps<E>(
  roots: readonly TreeNodeLike<E>[],
  leafId: string | null | undefined,
  rules: RowRules<E>,
): Steps<TreeRow<E>[]> {
  const { active, leaf } = yield* scanTree(roots, leafId, rules);

  type Item = { node: TreeNodeLike<E>; depth: number; justBranched: boolean; parentIndex: number };
  const stack: Item[] = [];
  const seen = new Set<TreeNodeLike<E>>();
  const pushChildren = (children: readonly TreeNodeLike<E>[], depth: number, branched: boolean, parentIndex: number) => {
    const ordered = orderSiblings(children, active, rules);
    for (let i = ordered.length - 1; i >= 0; i--) {
      const node = ordered[i]!;
      if (seen.has(node)) continue;
      seen.add(node);
      stack.push({ node, depth, justBranched: branched, parentIndex });
    }
  };
  const multipleRoots = roots.length > 1;
  pushChildren(roots, multipleRoots ? 1 : 0, multipleRoots, -1);

  const rows: TreeRow<E>[] = [];
  while (stack.length > 0) {
    if (tick(rows.length)) yield;
    const { node, depth, justBranched, parentIndex } = stack.pop()!;
    const { entry, children } = node;
    const label = node.label || undefined;
    const isLeaf = node === leaf;
    const index = rows.length;
    rows.push({
      entry,
      depth,
      text: rules.text(entry),
      ...(label !== undefined ? { label } : {}),
      isActive: active.has(node),
      isLeaf,
      visible: rules.visible(entry, label, isLeaf),
      parentIndex,
      childCount: children.length,
    });
    const branches = children.length > 1;
    const childDepth = branches || (justBranched && depth > 0) ? depth + 1 : depth;
    pushChildren(children, childDepth, branches, index);
  }
  return rows;
}

/**
 * Recomputes `visible` for a new filter or search without re-laying out the tree, so a UI
 * can memoize `flattenTree` on the tree and leaf and only call this per keystroke.
 */
export function applyVisibility(rows: readonly TreeRow[], filter: TreeFilter, search?: string): TreeRow[] {
  const tokens = parseSearch(search);
  return rows.map((row) => {
    const visible = isEntryVisible(row.entry, row.label, { filter, tokens, isLeaf: row.isLeaf });
    return visible === row.visible ? row : { ...row, visible };
  });
}

/** The rows currently shown, in display order. */
export function visibleRows<E>(rows: readonly TreeRow<E>[]): TreeRow<E>[] {
  return rows.filter((r) => r.visible);
}
