/**
 * One-pass index of a session's entries (session-engine.md §1.6, §1.8 "index"): id → entry, parent id →
 * children (file order) and the label map.
 * Pure: no network, disk or database access. O(n) in the number of entries.
 *
 * A layered index (`layerIndex`) starts empty over another index it never writes to: a
 * writer's fork of a large shared tree costs O(1) instead of a copy. Its `byId` and `labels`
 * are LayeredMaps; its `children` holds only the children it indexed itself, so read children
 * through `childrenOf`. Layers are one deep: `cloneIndex` flattens.
 */

import { LayeredMap } from "@/lib/session/tree/layered-map";
import type { SessionEntry } from "@/lib/session/types";

export interface TreeIndex {
  byId: Map<string, SessionEntry>;
  /**
   * parentId → children in file order. Self-parented entries are not their own children.
   * In a layered index, only the children indexed in this layer: read them with childrenOf.
   */
  children: Map<string, SessionEntry[]>;
  /** targetId → label; label entries applied in file order, the last one wins (session-engine.md §1.6). */
  labels: Map<string, string>;
  /** Bumped whenever an indexed entry is replaced by another object (SessionTree.replaceEntries). */
  version: number;
  /** The index this one is layered over (read-only to it), if any. */
  base?: TreeIndex;
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

/**
 * An empty index over `base` (flat: a layered base is flattened first, O(n) once). O(1) for a
 * flat base. The base may keep growing; see LayeredMap for what shows through.
 */
export function layerIndex(base: TreeIndex): TreeIndex {
  const under = base.base ? cloneIndex(base) : base;
  return {
    byId: new LayeredMap(under.byId),
    children: new Map(),
    labels: new LayeredMap(under.labels),
    version: 0,
    base: under,
  };
}

/**
 * The children of `parentId` in file order: the base's (each as this layer now holds it, e.g. a
 * replacement) then this layer's own, each id once. A fresh array.
 */
export function childrenOf(index: TreeIndex, parentId: string): SessionEntry[] {
  const own = index.children.get(parentId);
  const below = index.base?.children.get(parentId);
  if (!below) return own ? own.slice() : [];
  const out: SessionEntry[] = [];
  const seen = new Set<string>();
  for (const child of below) {
    const current = index.byId.get(child.id) ?? child;
    out.push(current);
    seen.add(current.id);
  }
  for (const child of own ?? []) if (!seen.has(child.id)) out.push(child);
  return out;
}

/** Whether any entry names `id` as its parent (its own layer or the base). */
export function hasChildren(index: TreeIndex, id: string): boolean {
  return index.children.has(id) || index.base?.children.has(id) === true;
}

/** An independent flat copy of `index` (its own maps and sibling arrays, the same entry objects). O(n), no re-indexing. */
export function cloneIndex(index: TreeIndex): TreeIndex {
  const children = new Map<string, SessionEntry[]>();
  if (index.base) {
    for (const id of index.base.children.keys()) children.set(id, childrenOf(index, id));
    for (const id of index.children.keys()) if (!children.has(id)) children.set(id, childrenOf(index, id));
  } else {
    for (const [id, siblings] of index.children) children.set(id, siblings.slice());
  }
  return { byId: new Map(index.byId), children, labels: new Map(index.labels), version: 0 };
}
