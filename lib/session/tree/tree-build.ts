/**
 * `getTree()` construction (session-engine.md §1.6).
 * Pure: no network, disk or database access.
 *
 * Iterative (no recursion), so a 100k-deep linear chain cannot overflow the stack while
 * building. O(n log k) overall, k = the largest sibling count.
 */

import { runSteps, type Steps, tick } from "@/lib/session/stepwise";
import type { SessionEntry } from "@/lib/session/types";

export interface TreeNode<E = SessionEntry> {
  entry: E;
  children: TreeNode<E>[];
  label?: string;
}

/** What building the tree reads of an entry (a full entry or its skeleton). */
export interface NodeKeys<E> {
  id(entry: E): string;
  parentId(entry: E): unknown;
  /** Timestamp in ms; NaN compares equal (keeps file order). */
  time(entry: E): number;
}

const ENTRY_KEYS: NodeKeys<SessionEntry> = {
  id: (e) => e.id,
  parentId: (e) => e.parentId,
  time: (e) => Date.parse(e.timestamp),
};

/**
 * Roots are entries whose parentId is null, equals their own id, or names a missing entry
 * (orphans); they keep file order. Children are sorted by timestamp ascending; Array#sort is
 * stable, so ties keep file order.
 */
export function buildTreeNodes(
  entries: readonly SessionEntry[],
  byId: ReadonlyMap<string, SessionEntry>,
  labels: ReadonlyMap<string, string>,
): TreeNode[] {
  return buildNodesBy(entries, byId, labels, ENTRY_KEYS);
}

/** buildTreeNodes over any entry shape; `entries` must have unique ids (all in `byId`). */
export function buildNodesBy<E>(
  entries: readonly E[],
  byId: ReadonlyMap<string, E>,
  labels: ReadonlyMap<string, string>,
  keys: NodeKeys<E>,
): TreeNode<E>[] {
  return runSteps(buildNodesSteps(entries, byId, labels, keys));
}

/** buildNodesBy as steps (stepwise.ts). */
export function* buildNodesSteps<E>(
  entries: readonly E[],
  byId: ReadonlyMap<string, E>,
  labels: ReadonlyMap<string, string>,
  keys: NodeKeys<E>,
): Steps<TreeNode<E>[]> {
  const nodes = new Map<string, TreeNode<E>>();
  for (let i = 0; i < entries.length; i++) {
    if (tick(i)) yield;
    const entry = entries[i]!;
    const node: TreeNode<E> = { entry, children: [] };
    const label = labels.get(keys.id(entry));
    if (label !== undefined) node.label = label;
    nodes.set(keys.id(entry), node);
  }

  const roots: TreeNode<E>[] = [];
  for (let i = 0; i < entries.length; i++) {
    if (tick(i)) yield;
    const entry = entries[i]!;
    const id = keys.id(entry);
    const node = nodes.get(id)!;
    const parentId: unknown = keys.parentId(entry);
    const parent = typeof parentId === "string" && parentId !== id && byId.has(parentId) ? nodes.get(parentId) : undefined;
    if (parent) parent.children.push(node);
    else roots.push(node);
  }

  const byTime = (a: TreeNode<E>, b: TreeNode<E>) => keys.time(a.entry) - keys.time(b.entry) || 0;
  let i = 0;
  for (const node of nodes.values()) {
    if (tick(i++)) yield;
    if (node.children.length > 1) node.children.sort(byTime);
  }
  return roots;
}
