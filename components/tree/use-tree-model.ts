"use client";
/**
 * useTreeModel: the memoised canvas model (toFlow + layoutTree + band nodes).
 *
 * Recomputes only when `entries`, `leafId`, `filter`, `search`, `expanded` or `labels`
 * change identity, so callers must pass stable references (memoise the labels Map, keep
 * `expanded` in state). Selection is NOT an input: moving the selection never re-lays out
 * the tree (the canvas unfolds a selected folded entry through `expanded` instead).
 * The search is deferred (useDeferredValue), so typing stays responsive on big sessions.
 */
import { useDeferredValue, useMemo } from "react";
import { layoutTree, type TreeLayout } from "@/components/tree/layout";
import { type FlowGraph, toFlow } from "@/components/tree/to-flow";
import type { BandNodeType, TreeEdge } from "@/components/tree/types";
import type { TreeFilter } from "@/lib/session/tree-filter";
import { type TreeRow, visibleRows } from "@/lib/session/tree-flatten";
import type { SessionEntry } from "@/lib/session/types";

export interface TreeModelInput {
  entries: readonly SessionEntry[];
  leafId: string | null | undefined;
  filter: TreeFilter;
  search: string;
  expanded: ReadonlySet<string>;
  labels?: ReadonlyMap<string, string>;
}

export interface TreeModel {
  flow: FlowGraph;
  layout: TreeLayout;
  edges: TreeEdge[];
  /** Summarised-region bands as background nodes (zIndex -1, not focusable). */
  bandNodes: BandNodeType[];
  /** The rows shown under the filter and search, in display order (list view, footer). */
  visible: TreeRow[];
  /** True while a newer search is still being applied. */
  stale: boolean;
}

export const BAND_CAPTION = "Summarised by compaction";

export function buildTreeModel(input: TreeModelInput): Omit<TreeModel, "stale"> {
  const flow = toFlow(input.entries, {
    leafId: input.leafId,
    filter: input.filter,
    search: input.search,
    expanded: input.expanded,
    ...(input.labels ? { labels: input.labels } : {}),
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

export function useTreeModel(input: TreeModelInput): TreeModel {
  const search = useDeferredValue(input.search);
  const { entries, leafId, filter, expanded, labels } = input;
  const model = useMemo(
    () => buildTreeModel({ entries, leafId, filter, search, expanded, ...(labels ? { labels } : {}) }),
    [entries, leafId, filter, search, expanded, labels],
  );
  return { ...model, stale: search !== input.search };
}
