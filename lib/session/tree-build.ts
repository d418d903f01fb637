/**
 * `getTree()` construction (spec §1.6).
 * Pure: no network, disk or database access.
 *
 * Iterative (no recursion), so a 100k-deep linear chain cannot overflow the stack while
 * building. O(n log k) overall, k = the largest sibling count.
 */

import type { SessionEntry } from "@/lib/session/types";

export interface TreeNode {
  entry: SessionEntry;
  children: TreeNode[];
  label?: string;
}

/** Date.parse for sorting; an unparsable timestamp compares equal (keeps file order). */
function byTimestamp(a: TreeNode, b: TreeNode): number {
  return Date.parse(a.entry.timestamp) - Date.parse(b.entry.timestamp) || 0;
}

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
  const nodes = new Map<string, TreeNode>();
  for (const entry of entries) {
    const node: TreeNode = { entry, children: [] };
    const label = labels.get(entry.id);
    if (label !== undefined) node.label = label;
    nodes.set(entry.id, node);
  }

  const roots: TreeNode[] = [];
  for (const entry of entries) {
    const node = nodes.get(entry.id)!;
    const parentId: unknown = entry.parentId;
    const parent =
      typeof parentId === "string" && parentId !== entry.id && byId.has(parentId) ? nodes.get(parentId) : undefined;
    if (parent) parent.children.push(node);
    else roots.push(node);
  }

  for (const node of nodes.values()) {
    if (node.children.length > 1) node.children.sort(byTimestamp);
  }
  return roots;
}
