/**
 * The canvas model of a list of entries, for the components/tree tests: the default filter, no
 * search, nothing unfolded, the last entry as the leaf unless given. Not used by production code.
 * Pure: no React, no DOM.
 */
import { buildTreeModel, type TreeModelInput } from "@/components/tree/hooks/use-tree-model";
import { resolveSkeleton } from "@/lib/session-view/skeleton-resolve";
import type { SessionEntry } from "@/lib/session/types";

export function treeModel(entries: readonly SessionEntry[], opts: Partial<Omit<TreeModelInput, "skeleton">> = {}) {
  return buildTreeModel({
    skeleton: resolveSkeleton(entries),
    leafId: entries.at(-1)?.id ?? null,
    filter: "default",
    expanded: new Set(),
    labels: new Map(),
    ...opts,
  });
}

/** treeModel at the overview level (one node per turn). */
export function overviewModel(entries: readonly SessionEntry[], opts: Partial<Omit<TreeModelInput, "skeleton" | "zoomLevel">> = {}) {
  return treeModel(entries, { ...opts, zoomLevel: "overview" });
}
