"use client";
/**
 * useTreeModel: the memoised canvas model (skeletonToFlow + layoutTree + band nodes).
 *
 * Recomputes only when `skeleton`, `leafId`, `filter`, `matches`, `expanded`, `labels`, `zoomLevel` or `expandedTurns`
 * change identity, so callers must pass stable references (memoise the labels Map and the
 * match set, keep `expanded` in state). Selection is NOT an input: moving the selection never
 * re-lays out the tree (the canvas unfolds a selected folded entry through `expanded` instead).
 * The search itself runs on the server (the caller passes the matching ids, `matches`).
 * Every stage also exists as steps (lib/session/stepwise.ts) for the sliced build of large
 * sessions (use-sliced-tree-model.ts).
 */
import { useMemo } from "react";
import { layoutTreeSteps } from "@/components/tree/layout/layout";
import { type Landmark, selectLandmarksSteps } from "@/components/tree/model/landmarks";
import { type FlowGraph, skeletonToFlowSteps } from "@/components/tree/layout/to-flow";
import { collapseTurnsSteps, groupTurns, type TurnGrouping } from "@/components/tree/model/turns";
import { runSteps, type Steps } from "@/lib/session/stepwise";
import { mapCaptions } from "@/components/tree/layout/map-captions";
import { collapseSpans } from "@/components/tree/model/spans";
import { startDecor } from "@/components/tree/model/start-decor";
import { crossesSlab, type Pane, type WrappedLayout, wrapEdgeRoute, wrapLayout } from "@/components/tree/layout/wrap-layout";
import type { BandNodeType, StartNodeType, TreeEdge } from "@/components/tree/types";
import type { TreeFilter } from "@/lib/session/tree/tree-filter";
import { visibleRows } from "@/lib/session/tree/tree-flatten";
import type { SkeletonEntry } from "@/lib/session-view/tree-skeleton";
import type { SkeletonRow } from "@/lib/session-view/tree-skeleton-view";

export interface TreeModelInput {
  /** Every entry's skeleton row (all branches), file order. */
  skeleton: readonly SkeletonEntry[];
  leafId: string | null | undefined;
  filter: TreeFilter;
  /** Ids matching the active search (§16.3); null/undefined: no search. */
  matches?: ReadonlySet<string> | null;
  expanded: ReadonlySet<string>;
  labels: ReadonlyMap<string, string>;
  /** Semantic zoom: "overview" draws one node per turn (except `expandedTurns`), "detail" one per entry. */
  zoomLevel?: ZoomLevel;
  /** Turn ids (`turn:<first entry id>`) shown as entries in the overview. */
  expandedTurns?: ReadonlySet<string>;
  /** Span ids (`span:<first entry id>`) shown as their turns in a long session's overview (spans.ts). */
  expandedSpans?: ReadonlySet<string>;
  /** Draw archived branches (marked) instead of leaving them out (archive-view.ts). */
  showArchived?: boolean;
  /**
   * The pane's size (paneShape buckets): the overview wraps a tall tree into slabs side by side
   * to fill it (wrap-layout.ts). Absent: no wrapping.
   */
  pane?: Pane;
  /**
   * Set when `skeleton` is only the tail of the current path (a large session's page while the
   * whole tree streams in): the user prompts before it. Turns are numbered from there and the
   * tail's first entry is not called the session start.
   */
  turnsBefore?: number;
}

export type ZoomLevel = "overview" | "detail";

export interface TreeModel {
  flow: FlowGraph;
  layout: WrappedLayout;
  edges: TreeEdge[];
  /** Landmarks of the displayed graph (landmarks.ts), in display order. */
  landmarks: Landmark[];
  /** The map's turn (or prompt) captions, drawn zoomed out (map-captions.ts). */
  captions: Landmark[];
  zoomLevel: ZoomLevel;
  /**
   * Drawn, not navigable: the summarised-region bands (zIndex -1) and, above several roots (a
   * branch summary written at the session start, imported orphans), the session start node they
   * all hang under. Neither is focusable or part of the layout's tree.
   */
  bandNodes: (BandNodeType | StartNodeType)[];
  /** The rows shown under the filter and search, in display order (list view, footer). */
  visible: SkeletonRow[];
  /** True while a newer search is still being applied. */
  stale: boolean;
}

export const BAND_CAPTION = "Summarised by compaction";

/** Tree edges into another slab of a wrapped layout become "wrap" edges with their route. */
function wrapEdges(edges: readonly TreeEdge[], layout: WrappedLayout): TreeEdge[] {
  return edges.map((e) => {
    if (e.data?.kind !== "tree") return e;
    const t = layout.index.get(e.target);
    if (t === undefined || !crossesSlab(layout, t)) return e;
    const route = wrapEdgeRoute(layout, layout.parent[t]!);
    return route ? { ...e, type: "wrap", data: { ...e.data, route } } : e;
  });
}

/** The entry-level graph (one node per entry or folded run): the part zooming never changes. */
export function entryGraph(input: TreeModelInput): FlowGraph {
  return runSteps(entryGraphSteps(input));
}

/** entryGraph as steps (lib/session/stepwise.ts). */
export function entryGraphSteps(input: TreeModelInput): Steps<FlowGraph> {
  return skeletonToFlowSteps(input.skeleton, {
    leafId: input.leafId,
    filter: input.filter,
    matches: input.matches,
    expanded: input.expanded,
    labels: input.labels,
    showArchived: input.showArchived,
  });
}

export function buildTreeModel(input: TreeModelInput): Omit<TreeModel, "stale"> {
  const entryFlow = entryGraph(input);
  const zoomLevel = input.zoomLevel ?? "detail";
  const grouping = zoomLevel === "overview" ? groupTurns(entryFlow, input.turnsBefore) : null;
  return viewModel(entryFlow, grouping, input.expandedTurns, input.pane, input.expandedSpans, input.turnsBefore !== undefined);
}

/**
 * The displayed model over an entry graph: with a turn grouping (the overview), every turn not
 * in `expandedTurns` collapsed; then the layout, bands and landmarks (`tail`: the graph is the
 * current path's tail, whose root is not the session start).
 */
export function viewModel(
  entryFlow: FlowGraph,
  grouping: TurnGrouping | null,
  expandedTurns?: ReadonlySet<string>,
  pane?: Pane,
  expandedSpans?: ReadonlySet<string>,
  tail = false,
): Omit<TreeModel, "stale"> {
  return runSteps(viewModelSteps(entryFlow, grouping, expandedTurns, pane, expandedSpans, tail));
}

/** viewModel as steps (lib/session/stepwise.ts). */
export function* viewModelSteps(
  entryFlow: FlowGraph,
  grouping: TurnGrouping | null,
  expandedTurns?: ReadonlySet<string>,
  pane?: Pane,
  expandedSpans?: ReadonlySet<string>,
  tail = false,
): Steps<Omit<TreeModel, "stale">> {
  const zoomLevel: ZoomLevel = grouping ? "overview" : "detail";
  let flow = entryFlow;
  if (grouping) {
    const turns = yield* collapseTurnsSteps(entryFlow, grouping, (t) => !expandedTurns?.has(t.id));
    yield;
    flow = { ...entryFlow, ...collapseSpans(turns, expandedSpans) };
  }
  let layout: WrappedLayout = yield* layoutTreeSteps(flow);
  yield;
  if (grouping && pane !== undefined) {
    layout = wrapLayout(layout, pane);
    if (layout.wrap) flow = { ...flow, edges: wrapEdges(flow.edges, layout) };
    yield;
  }
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
  yield;
  const start = startDecor(layout);
  const landmarks = yield* selectLandmarksSteps(flow.nodes, flow.edges, start !== null || tail);
  yield;
  return {
    flow,
    layout,
    edges: start ? flow.edges.concat(start.edges) : flow.edges,
    bandNodes: start ? [...bandNodes, start.node] : bandNodes,
    landmarks,
    captions: mapCaptions(flow.nodes),
    zoomLevel,
    visible: visibleRows(flow.rows),
  };
}

/**
 * The memoised model of the inputs, built while rendering; null when not `enabled` (the
 * canvas builds large skeletons in slices instead: use-sliced-tree-model.ts).
 */
export function useTreeModel(input: TreeModelInput & { stale?: boolean }, enabled = true): TreeModel | null {
  const { skeleton, leafId, filter, matches, expanded, labels, zoomLevel, expandedTurns, expandedSpans, pane, showArchived, turnsBefore } = input;
  // Three stages, so a zoom (level or expanded turns) never rebuilds the entry graph.
  const entryFlow = useMemo(
    () => (enabled ? entryGraph({ skeleton, leafId, filter, matches, expanded, labels, showArchived }) : null),
    [enabled, skeleton, leafId, filter, matches, expanded, labels, showArchived],
  );
  const overview = zoomLevel === "overview";
  const grouping = useMemo(() => (entryFlow && overview ? groupTurns(entryFlow, turnsBefore) : null), [entryFlow, overview, turnsBefore]);
  const tail = turnsBefore !== undefined;
  const model = useMemo(
    () => (entryFlow ? viewModel(entryFlow, grouping, expandedTurns, pane, expandedSpans, tail) : null),
    [entryFlow, grouping, expandedTurns, pane, expandedSpans, tail],
  );
  return model && { ...model, stale: input.stale ?? false };
}
