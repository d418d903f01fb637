/**
 * Archived branches on the canvas and in the list (session-engine.md §19.4; ui.md "Archive a
 * branch"). Pure: no React, no DOM. Linear in the skeleton.
 *
 * - `archiveView`: which entries the archives hide now (the branch holding the current leaf is
 *   never hidden) and how many archived branches there are; the canvas leaves them out of the
 *   map, the list and the search, unless "Archived" is on, which draws them marked "archived".
 * - `branchRoot`: the branch an entry off the current path belongs to, as "Archive branch" names
 *   it: its first entry after the branch point on the current path (null on the current path).
 * - `archivedRoot`: the archived branch an entry lies in (what "Restore branch" restores).
 */
import { archivedIds, hiddenByArchive } from "@/lib/session/archives";
import type { SkeletonEntry } from "@/lib/session-view/tree-skeleton";
import { skeletonArchiveChanges } from "@/lib/session-view/skeleton-resolve";

export interface ArchiveView {
  /** Archived branch roots in effect (their branch does not hold the current leaf). */
  roots: Set<string>;
  /** Every entry inside those branches. */
  hidden: Set<string>;
}

const NONE: ArchiveView = { roots: new Set(), hidden: new Set() };

export function archiveView(skeleton: readonly SkeletonEntry[], leafId: string | null | undefined): ArchiveView {
  const changes = skeletonArchiveChanges(skeleton);
  if (changes.length === 0) return NONE;
  const archived = archivedIds(changes);
  if (archived.size === 0) return NONE;
  const parent = new Map<string, string | null>();
  for (const s of skeleton) if (!parent.has(s.id)) parent.set(s.id, s.parentId);
  const parentOf = (id: string) => parent.get(id) ?? null;
  const hidden = hiddenByArchive([...parent.keys()], parentOf, archived, leafId);
  return { roots: new Set([...archived].filter((id) => hidden.has(id))), hidden };
}

/** The ids of the path ending at `leafId`. */
function pathSet(byId: ReadonlyMap<string, SkeletonEntry>, leafId: string | null): Set<string> {
  const out = new Set<string>();
  for (let e = leafId === null ? undefined : byId.get(leafId); e && !out.has(e.id); e = e.parentId === null ? undefined : byId.get(e.parentId)) out.add(e.id);
  return out;
}

/** The first entry of the branch holding `entryId` off the current path; null on the current path. */
export function branchRoot(byId: ReadonlyMap<string, SkeletonEntry>, leafId: string | null, entryId: string): string | null {
  const onPath = pathSet(byId, leafId);
  if (onPath.has(entryId)) return null;
  let at = byId.get(entryId);
  const seen = new Set<string>();
  while (at && at.parentId !== null && !onPath.has(at.parentId) && !seen.has(at.id)) {
    seen.add(at.id);
    const up = byId.get(at.parentId);
    if (!up) break;
    at = up;
  }
  return at?.id ?? null;
}

/** The archived branch root `entryId` lies in (itself or an ancestor), or null. */
export function archivedRoot(byId: ReadonlyMap<string, SkeletonEntry>, roots: ReadonlySet<string>, entryId: string): string | null {
  const seen = new Set<string>();
  for (let e = byId.get(entryId); e && !seen.has(e.id); e = e.parentId === null ? undefined : byId.get(e.parentId)) {
    if (roots.has(e.id)) return e.id;
    seen.add(e.id);
  }
  return null;
}
