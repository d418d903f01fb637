/**
 * Root-first path from an entry up to its root (session-engine.md §1.6 getBranch, §2 step 4).
 * Pure: no network, disk or database access.
 *
 * Linear in the path length: entries are pushed and the array is reversed once, instead of
 * unshifting (which is quadratic on 100k-entry chains). A missing parent ends the walk; so
 * does a self-parented entry or any cycle in malformed data, so the walk always terminates.
 */

import type { SessionEntry } from "@/lib/session/types";

/** A read-only id → entry index (the Map built on load is one). */
export interface EntryLookup {
  get(id: string): SessionEntry | undefined;
  /** How many entries it holds, when known: a walk longer than that has met a cycle. */
  readonly size?: number;
}

/** The path from `start` to its root, root first. */
export function pathToRoot(start: SessionEntry, byId: EntryLookup): SessionEntry[] {
  const path: SessionEntry[] = [];
  // Cycles only occur in malformed data, but a walk must never loop. A path visits every entry
  // at most once, so with a known size a longer walk is a cycle: back off to a visited set.
  const limit = typeof byId.size === "number" ? byId.size + 1 : 0;
  let current: SessionEntry | undefined = start;
  while (current && path.length < limit) {
    path.push(current);
    const parentId: unknown = current.parentId;
    if (typeof parentId !== "string" || parentId === current.id) return path.reverse();
    current = byId.get(parentId);
  }
  if (!current) return path.reverse();
  return walkWithSeen(start, byId);
}

function walkWithSeen(start: SessionEntry, byId: EntryLookup): SessionEntry[] {
  const path: SessionEntry[] = [];
  const seen = new Set<SessionEntry>();
  let current: SessionEntry | undefined = start;
  while (current && !seen.has(current)) {
    seen.add(current);
    path.push(current);
    const parentId: unknown = current.parentId;
    if (typeof parentId !== "string" || parentId === current.id) break;
    current = byId.get(parentId);
  }
  return path.reverse();
}
