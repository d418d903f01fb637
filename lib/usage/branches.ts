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

/** Each entry's segment: `startOf(id)` is the first entry of the segment holding `id` (undefined: not in the tree). */
export function segmentStarts(nodes: readonly TreeNode[]): { startOf: (id: string) => string | undefined; parentOf: ReadonlyMap<string, string | null> } {
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
  return { startOf: (id) => (parentOf.has(id) ? resolve(id) : undefined), parentOf };
}

/** Segment totals of `rows` over the tree of `nodes` (rows of entries not in the tree are left out). */
export function branchCosts(nodes: readonly TreeNode[], rows: readonly CostedRow[]): BranchCost[] {
  const { startOf, parentOf } = segmentStarts(nodes);
  const out = new Map<string, BranchCost>();
  for (const row of rows) {
    const start = startOf(row.entryId);
    if (start === undefined) continue;
    const b = out.get(start) ?? { startId: start, forkedFrom: parentOf.get(start) ?? null, costMicros: 0, tokens: 0, calls: 0 };
    b.costMicros += row.costMicros ?? 0;
    b.tokens += row.tokens;
    b.calls += 1;
    out.set(start, b);
  }
  return [...out.values()];
}

export interface SessionBranch extends BranchCost {
  /** False for a branch off the path from the root to the session's current leaf. */
  onCurrentPath: boolean;
}

/**
 * `branchCosts` with each segment marked on or off the current path (root → `leafId`); a
 * segment off it is an abandoned branch. Segments first on the path (root first), then the
 * abandoned ones, costliest first.
 */
export function sessionBranches(nodes: readonly TreeNode[], rows: readonly CostedRow[], leafId: string | null): SessionBranch[] {
  const parentOf = new Map(nodes.map((n) => [n.id, n.parentId] as const));
  // The current path, leaf first; its depth from the root orders its segments.
  const path: string[] = [];
  const seen = new Set<string>();
  for (let at: string | null | undefined = leafId; at && !seen.has(at); at = parentOf.get(at)) {
    seen.add(at);
    path.push(at);
  }
  const onPath = new Map(path.map((id, i) => [id, path.length - i] as const));
  const out = branchCosts(nodes, rows).map((b) => ({ ...b, onCurrentPath: onPath.has(b.startId) }));
  return out.sort((a, b) =>
    a.onCurrentPath !== b.onCurrentPath
      ? a.onCurrentPath
        ? -1
        : 1
      : a.onCurrentPath
        ? (onPath.get(a.startId) ?? 0) - (onPath.get(b.startId) ?? 0)
        : b.costMicros - a.costMicros || b.tokens - a.tokens,
  );
}

/**
 * The "colour by cost" view's heat of every entry: its segment's cost over the costliest
 * segment's (0–1; tokens when nothing is priced). Entries of segments without calls get 0.
 */
export function costHeat(nodes: readonly TreeNode[], branches: readonly BranchCost[]): Map<string, number> {
  const priced = branches.some((b) => b.costMicros > 0);
  const value = (b: BranchCost) => (priced ? b.costMicros : b.tokens);
  const max = branches.reduce((m, b) => Math.max(m, value(b)), 0);
  const bySegment = new Map(branches.map((b) => [b.startId, max > 0 ? value(b) / max : 0]));
  const { startOf } = segmentStarts(nodes);
  const heat = new Map<string, number>();
  for (const n of nodes) heat.set(n.id, bySegment.get(startOf(n.id) ?? "") ?? 0);
  return heat;
}
