/**
 * The tree navigator over skeleton rows (tree-skeleton.ts): the same §16.1 order and
 * indentation, §16.2 row texts and §16.3 visibility as `flattenTree` over full entries, without
 * the entries' contents. Search is the one rule a skeleton cannot decide (it reads the whole
 * content text): the caller passes the set of matching ids, which the server computes with
 * search-text.ts (`GET /api/sessions/[id]/search`), or `matchingIds` below over full entries.
 * Pure: no network, disk or database access.
 */
import { runSteps, type Steps, tick } from "@/lib/session/stepwise";
import { buildNodesSteps, type NodeKeys } from "@/lib/session/tree/tree-build";
import { passesFilterBy, type TreeFilter } from "@/lib/session/tree/tree-filter";
import { flattenRowsSteps, type TreeRow } from "@/lib/session/tree/tree-flatten";
import { FLAG, type SkeletonEntry } from "@/lib/session-view/tree-skeleton";

export type SkeletonRow = TreeRow<SkeletonEntry>;

export interface SkeletonViewOptions {
  leafId: string | null | undefined;
  filter?: TreeFilter;
  /** Resolved labels (skeletonLabels). */
  labels: ReadonlyMap<string, string>;
  /** Ids matching the active search (§16.3); null/undefined: no search. */
  matches?: ReadonlySet<string> | null;
}

const KEYS: NodeKeys<SkeletonEntry> = { id: (s) => s.id, parentId: (s) => s.parentId, time: (s) => s.t };

/** §16.3 visibility of a skeleton row: hidden assistants (leaf exempt), filter, search. */
export function isSkeletonVisible(
  s: SkeletonEntry,
  label: string | undefined,
  opts: { filter: TreeFilter; matches?: ReadonlySet<string> | null; isLeaf: boolean },
): boolean {
  if (!opts.isLeaf && (s.flags & FLAG.hiddenAssistant) !== 0) return false;
  if (!passesFilterBy(s.type, s.role, label, opts.filter)) return false;
  return opts.matches == null || opts.matches.has(s.id);
}

/** Navigator rows of a skeleton, in display order (see flattenRows). Duplicate ids keep the first. */
export function flattenSkeleton(rows: readonly SkeletonEntry[], opts: SkeletonViewOptions): SkeletonRow[] {
  return runSteps(flattenSkeletonSteps(rows, opts));
}

/** flattenSkeleton as steps (stepwise.ts). */
export function* flattenSkeletonSteps(rows: readonly SkeletonEntry[], opts: SkeletonViewOptions): Steps<SkeletonRow[]> {
  const byId = new Map<string, SkeletonEntry>();
  for (let i = 0; i < rows.length; i++) {
    if (tick(i)) yield;
    const s = rows[i]!;
    if (!byId.has(s.id)) byId.set(s.id, s);
  }
  const unique = byId.size === rows.length ? rows : [...byId.values()];
  const roots = yield* buildNodesSteps(unique, byId, opts.labels, KEYS);
  const filter = opts.filter ?? "default";
  const matches = opts.matches;
  return yield* flattenRowsSteps(roots, opts.leafId, {
    id: (s) => s.id,
    time: (s) => s.t,
    text: (s) => s.text,
    visible: (s, label, isLeaf) => isSkeletonVisible(s, label, { filter, matches, isLeaf }),
  });
}

/** Root-first path from `leafId` up to its root, over skeleton rows (session-engine.md §1.6 getBranch). */
export function skeletonPath(byId: ReadonlyMap<string, SkeletonEntry>, leafId: string | null | undefined): SkeletonEntry[] {
  const path: SkeletonEntry[] = [];
  const seen = new Set<string>();
  let current = leafId == null ? undefined : byId.get(leafId);
  while (current && !seen.has(current.id)) {
    seen.add(current.id);
    path.push(current);
    if (current.parentId === null || current.parentId === current.id) break;
    current = byId.get(current.parentId);
  }
  return path.reverse();
}
