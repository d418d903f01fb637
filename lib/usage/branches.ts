/**
 * What each branch of a session tree cost (docs/usage.md "Branches"). Pure.
 *
 * A tree's entries fall into segments: a segment starts at a root or at a child of a branch
 * point (an entry with several children) and runs down while each entry has one child. Every
 * entry is in exactly one segment, so the segments' costs add up to the session's total, and an
 * abandoned branch's segment says what the abandoned work cost.
 */
export interface TreeNode {
  id: string;
  parentId: string | null;
}

export interface CostedRow {
  entryId: string;
  costMicros?: number;
  tokens: number;
}

export interface BranchCost {
  /** The segment's first entry. */
  startId: string;
  /** The entry it hangs from (a branch point), or null for a root. */
  forkedFrom: string | null;
  costMicros: number;
  tokens: number;
  calls: number;
}

/** Segment totals of `rows` over the tree of `nodes` (rows of entries not in the tree are left out). */
export function branchCosts(nodes: readonly TreeNode[], rows: readonly CostedRow[]): BranchCost[] {
  const children = new Map<string | null, number>();
  const parentOf = new Map<string, string | null>();
  for (const n of nodes) {
    const parent = n.parentId !== null && n.parentId !== n.id ? n.parentId : null;
    parentOf.set(n.id, parent);
    children.set(parent, (children.get(parent) ?? 0) + 1);
  }
  const startOf = new Map<string, string>();
  const resolve = (id: string): string => {
    const path: string[] = [];
    let at = id;
    let start: string | undefined;
    for (;;) {
      const known = startOf.get(at);
      if (known !== undefined) {
        start = known;
        break;
      }
      path.push(at);
      const parent = parentOf.get(at) ?? null;
      if (parent === null || !parentOf.has(parent) || (children.get(parent) ?? 0) > 1) {
        start = at;
        break;
      }
      at = parent;
    }
    for (const p of path) startOf.set(p, start);
    return start;
  };
  const out = new Map<string, BranchCost>();
  for (const row of rows) {
    if (!parentOf.has(row.entryId)) continue;
    const start = resolve(row.entryId);
    const b = out.get(start) ?? { startId: start, forkedFrom: parentOf.get(start) ?? null, costMicros: 0, tokens: 0, calls: 0 };
    b.costMicros += row.costMicros ?? 0;
    b.tokens += row.tokens;
    b.calls += 1;
    out.set(start, b);
  }
  return [...out.values()];
}
