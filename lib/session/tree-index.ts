/**
 * One-pass index of a session's entries (session-engine.md §1.6, §1.8 "index"): id → entry, parent id →
 * children (file order) and the label map.
 * Pure: no network, disk or database access. O(n) in the number of entries.
 */

import type { SessionEntry } from "@/lib/session/types";

export interface TreeIndex {
  byId: Map<string, SessionEntry>;
  /** parentId → children in file order. Self-parented entries are not their own children. */
  children: Map<string, SessionEntry[]>;
  /** targetId → label; label entries applied in file order, the last one wins (session-engine.md §1.6). */
  labels: Map<string, string>;
  /** Bumped whenever an indexed entry is replaced by another object (SessionTree.replaceEntries). */
  version: number;
}

export function emptyIndex(): TreeIndex {
  return { byId: new Map(), children: new Map(), labels: new Map(), version: 0 };
}

/**
 * Adds one entry to the index. Used both on load (in file order) and by every append, so the
 * two can never disagree. Throws on an entry without a string id or with a duplicate id:
 * those are invariant violations (loadSession filters them out of imported files).
 */
export function indexEntry(index: TreeIndex, entry: SessionEntry): void {
  const id: unknown = entry.id;
  if (typeof id !== "string" || id === "") throw new Error("Session entry without an id");
  if (index.byId.has(id)) throw new Error(`Duplicate entry id ${id}`);
  index.byId.set(id, entry);

  const parentId: unknown = entry.parentId;
  if (typeof parentId === "string" && parentId !== id) {
    const siblings = index.children.get(parentId);
    if (siblings) siblings.push(entry);
    else index.children.set(parentId, [entry]);
  }

  if (entry.type === "label") applyLabel(index.labels, entry.targetId, entry.label);
}

/** `undefined` or "" clears the label (session-engine.md §1.6). */
function applyLabel(labels: Map<string, string>, targetId: unknown, label: unknown): void {
  if (typeof targetId !== "string") return;
  if (typeof label === "string" && label !== "") {
    // Delete first so the Map's iteration order follows the latest change (used by forks).
    labels.delete(targetId);
    labels.set(targetId, label);
  } else {
    labels.delete(targetId);
  }
}

export function buildIndex(entries: readonly SessionEntry[]): TreeIndex {
  const index = emptyIndex();
  for (const entry of entries) indexEntry(index, entry);
  return index;
}

/** An independent copy of `index` (its own maps and sibling arrays, the same entry objects). O(n), no re-indexing. */
export function cloneIndex(index: TreeIndex): TreeIndex {
  const children = new Map<string, SessionEntry[]>();
  for (const [id, siblings] of index.children) children.set(id, siblings.slice());
  return { byId: new Map(index.byId), children, labels: new Map(index.labels), version: 0 };
}
