"use client";
/**
 * useTreeModel: the memoised canvas model (skeletonToFlow + layoutTree + band nodes).
 *
 * Recomputes only when `skeleton`, `leafId`, `filter`, `matches`, `expanded` or `labels`
 * change identity, so callers must pass stable references (memoise the labels Map and the
 * match set, keep `expanded` in state). Selection is NOT an input: moving the selection never
 * re-lays out the tree (the canvas unfolds a selected folded entry through `expanded` instead).
 * The search itself runs on the server (the caller passes the matching ids, `matches`).
 */
import { useMemo } from "react";
import { layoutTree, type TreeLayout } from "@/components/tree/layout";
import { type FlowGraph, skeletonToFlow } from "@/components/tree/to-flow";
import type { BandNodeType, TreeEdge } from "@/components/tree/types";
import type { TreeFilter } from "@/lib/session/tree-filter";
import { visibleRows } from "@/lib/session/tree-flatten";
import type { SkeletonEntry } from "@/lib/session/tree-skeleton";
import type { SkeletonRow } from "@/lib/session/tree-skeleton-view";

export interface TreeModelInput {
  /** Every entry's skeleton row (all branches), file order. */
  skeleton: readonly SkeletonEntry[];
  leafId: string | null | undefined;
  filter: TreeFilter;
  /** Ids matching the active search (§16.3); null/undefined: no search. */
  matches?: ReadonlySet<string> | null;
  expanded: ReadonlySet<string>;
  labels: ReadonlyMap<string, string>;
}

export interface TreeModel {
  flow: FlowGraph;
  layout: TreeLayout;
  edges: TreeEdge[];
  /** Summarised-region bands as background nodes (zIndex -1, not focusable). */
  bandNodes: BandNodeType[];
  /** The rows shown under the filter and search, in display order (list view, footer). */
  visible: SkeletonRow[];
  /** True while a newer search is still being applied. */
  stale: boolean;
}

export const BAND_CAPTION = "Summarised by compaction";

export function buildTreeModel(input: TreeModelInput): Omit<TreeModel, "stale"> {
  const flow = skeletonToFlow(input.skeleton, {
    leafId: input.leafId,
    filter: input.filter,
    matches: input.matches,
    expanded: input.expanded,
    labels: input.labels,
  });
  const layout = layoutTree(flow);
  const textOf = new Map<string, string>();
  for (const n of flow.nodes) if (n.type === "compaction") textOf.set(n.id, n.data.text);
  const bandNodes: BandNodeType[] = layout.bands.map((b) => {
    const compactionText = textOf.get(b.compactionId) ?? "[compaction]";
    return {
      id: b.id,
      type: "band",
      position: { x: b.x, y: b.y },
      width: b.width,
      height: b.height,
      measured: { width: b.width, height: b.height },
      data: { compactionId: b.compactionId, compactionText },
      selectable: false,
      focusable: false,
      draggable: false,
      connectable: false,
      zIndex: -1,
      style: { pointerEvents: "none" },
      ariaRole: "img",
      ariaLabel: `${BAND_CAPTION}: ${compactionText}`,
    };
  });
  return { flow, layout, edges: flow.edges, bandNodes, visible: visibleRows(flow.rows) };
}

export function useTreeModel(input: TreeModelInput & { stale?: boolean }): TreeModel {
  const { skeleton, leafId, filter, matches, expanded, labels } = input;
  const model = useMemo(
    () => buildTreeModel({ skeleton, leafId, filter, matches, expanded, labels }),
    [skeleton, leafId, filter, matches, expanded, labels],
  );
  return { ...model, stale: input.stale ?? false };
}
