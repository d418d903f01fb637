"use client";
/**
 * The session tree pane once its model is ready (<TreeCanvas>'s contract, tree-canvas.tsx): the
 * selection rules (session-engine.md §16.3), viewport, keyboard, entry menu, toolbar, and the
 * canvas or the list.
 */
import type { ReactFlowInstance } from "@xyflow/react";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { EntryMenu } from "@/components/tree/entry-menu";
import { jumpMenu } from "@/components/tree/model/jump-targets";
import { BranchCostContext, CostHeatContext, continueTarget, type MenuRequest, type TreeActions, TreeActionsContext } from "@/components/tree/tree-context";
import { type BranchCost, costHeat } from "@/lib/usage/branches";
import { TreeFlowView } from "@/components/tree/tree-flow-view";
import { TreeList } from "@/components/tree/tree-list";
import { TreeLoadingStrip, type TreeLoadingNote } from "@/components/tree/tree-loading-strip";
import { footerIndex, reconcileSelection } from "@/components/tree/tree-nav";
import { type TreeView, TreeToolbar } from "@/components/tree/tree-toolbar";
import type { CanvasNode, ContextAction, TreeEdge } from "@/components/tree/types";
import { entryIdOf, isGroupId } from "@/components/tree/types";
import { useCanvasViewport } from "@/components/tree/hooks/use-canvas-viewport";
import { useKeepFocus } from "@/components/tree/hooks/use-keep-focus";
import { useRestoreAnchor, type useSemanticZoom } from "@/components/tree/hooks/use-semantic-zoom";
import { useTreeKeyboard } from "@/components/tree/hooks/use-tree-keyboard";
import { useFitMap, usePaneShape } from "@/components/tree/hooks/use-canvas-pane";
import { useNodeHandlers } from "@/components/tree/hooks/use-node-handlers";
import type { Pane } from "@/components/tree/layout/wrap-layout";
import type { TreeModel } from "@/components/tree/hooks/use-tree-model";
import { useTypedBeforeHydration } from "@/components/ui-hooks/use-typed-before-hydration";
import { emptyText, formatFooter, type TreeFilter } from "@/lib/session/tree/tree-filter";
import { initialSelection } from "@/lib/session/tree/tree-graph";
import type { SkeletonEntry } from "@/lib/session-view/tree-skeleton";

/** <TreeCanvas>'s props; their contract is in tree-canvas.tsx. */
export interface TreeCanvasProps {
  skeleton: readonly SkeletonEntry[];
  leafId: string | null;
  labels: ReadonlyMap<string, string>;
  searchMatches?: ReadonlySet<string> | null;
  searchPending?: boolean;
  selectedId: string | null;
  onSelect: (id: string | null) => void;
  onActivate: (entryId: string) => void;
  onContextAction: (action: ContextAction, entryId: string) => void;
  centerOn?: string;
  filter: TreeFilter;
  onFilterChange: (filter: TreeFilter) => void;
  search: string;
  onSearchChange: (search: string) => void;
  defaultView?: TreeView;
  className?: string;
  /** Each branch segment's cost by its first entry (the branch cost badges); absent: no badges. */
  branchCosts?: ReadonlyMap<string, BranchCost>;
  /** `skeleton` is only the tail of the current path while the whole tree streams in (a large session's page). */
  partial?: PartialTree;
}

export interface PartialTree {
  /** User prompts on the current path before the tail (the map numbers its turns from there). */
  turnsBefore: number;
  /** Entries in the whole session. */
  total: number;
  /** Share of the whole skeleton loaded (0–1). */
  share: number;
  /** The stream failed: why (the tail's map stays). */
  error: string | null;
}

const NO_COSTS: ReadonlyMap<string, BranchCost> = new Map();

/** Viewports where the minimap starts collapsed. */
const PHONE_QUERY = "(max-width: 640px)";

export interface TreeCanvasBodyProps extends TreeCanvasProps {
  flow: ReactFlowInstance<CanvasNode, TreeEdge>;
  zoom: ReturnType<typeof useSemanticZoom>;
  model: TreeModel;
  unfold: (entryIds: readonly string[]) => void;
  pane: Pane;
  onPane: (pane: Pane) => void;
  showArchived: boolean;
  onShowArchived: (on: boolean) => void;
  /** The map drawn is not the whole tree yet: what is loading (a strip above the canvas). */
  loading: TreeLoadingNote | null;
}

/** The pane once the model is built (see the module comment). */
export function TreeCanvasBody(props: TreeCanvasBodyProps) {
  const { skeleton, leafId, selectedId, onActivate, onContextAction, filter, search, flow, zoom, model, unfold } = props;
  const [view, setView] = useState<TreeView>(props.defaultView ?? "canvas");
  const [minimap, setMinimap] = useState(true);
  const [byCost, setByCost] = useState(false);
  const costs = props.branchCosts ?? NO_COSTS;
  const heat = useMemo(() => (byCost ? costHeat(props.skeleton, [...costs.values()]) : null), [byCost, props.skeleton, costs]);
  // On a phone the minimap starts collapsed (the toolbar's "Minimap" shows it): it would take a
  // quarter of the canvas. Read after hydrating, so the server and the first render agree.
  useEffect(() => {
    if (window.matchMedia(PHONE_QUERY).matches) setMinimap(false);
  }, []);
  const [menu, setMenu] = useState<MenuRequest | null>(null);
  const regionRef = useRef<HTMLElement>(null);
  const paneRef = useRef<HTMLDivElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  useTypedBeforeHydration(searchRef, search, props.onSearchChange);
  const { zoomLevel, expandTurn } = zoom;
  useRestoreAnchor(flow, zoom, model);
  const { flow: graph, layout, visible } = model;

  // Stable callbacks for memoised nodes, reading the latest props.
  const latest = useRef(props);
  latest.current = props;
  /** Selections made by the canvas itself go through `select`, so the viewport knows them. */
  const internalSelection = useRef<string | null>(null);
  const select = useCallback((id: string | null) => {
    internalSelection.current = id;
    latest.current.onSelect(id);
  }, []);
  const closeMenu = useCallback(() => setMenu(null), []);
  const latestModel = useRef(model);
  latestModel.current = model;
  const contextAction = useCallback(
    (action: ContextAction, id: string) => {
      if (action === "expand-turn") expandTurn(id);
      else if (action === "continue") latest.current.onActivate(continueTarget(latestModel.current, id));
      else latest.current.onContextAction(action, entryIdOf(id));
    },
    [expandTurn],
  );
  const actions = useMemo<TreeActions>(
    () => ({ openMenu: setMenu, contextAction, unfold, expandTurn, menuFor: menu?.id ?? null }),
    [contextAction, unfold, expandTurn, menu],
  );

  // Initial selection: the current leaf, or its nearest visible ancestor (§16.3).
  const initialised = useRef(false);
  useEffect(() => {
    if (initialised.current) return;
    initialised.current = true;
    if (latest.current.selectedId === null) {
      const id = initialSelection(graph.rows, leafId);
      if (id !== null) select(id);
    }
  }, [graph.rows, leafId, select]);

  // Selection rules after every change of the graph or the selection (§16.3).
  useEffect(() => {
    const fix = reconcileSelection(selectedId, {
      rows: graph.rows,
      nodeOf: graph.nodeOf,
      hasNode: (id) => layout.index.has(id),
    });
    if (fix.kind === "select") select(fix.id);
    // An entry inside a collapsed overview turn stays selected; its turn shows the selection.
    else if (fix.kind === "unfold" && !isGroupId(graph.nodeOf.get(fix.entryId) ?? "")) unfold([fix.entryId]);
  }, [graph, layout, selectedId, select, unfold]);

  const viewport = useCanvasViewport({
    flow,
    model,
    view,
    leafId,
    centerOn: props.centerOn,
    regionRef,
    selectedId,
    internalSelection,
    onSelect: select,
    unfold,
  });

  useKeepFocus(regionRef, selectedId, model.layout, view);

  const fit = useFitMap(zoom, viewport, model);
  usePaneShape(paneRef, props.pane, props.onPane, zoom, viewport.ready);

  const onKeyDown = useTreeKeyboard({
    view,
    model,
    selectedId,
    filter,
    search,
    onSelect: select,
    onActivate: (id) => onActivate(continueTarget(model, id)),
    onContextAction: (action, id) => onContextAction(action, entryIdOf(id)),
    onFilterChange: props.onFilterChange,
    onSearchChange: props.onSearchChange,
    unfold,
    expandTurn,
    focusSearch: () => searchRef.current?.focus(),
    reveal: (id) => viewport.reveal(id, true),
  });

  const { onNodeClick, onNodeDoubleClick, onNodeContextMenu, onFocus } = useNodeHandlers({ select, unfold, expandTurn, openMenu: setMenu, selectedId });

  const selectedEntry = selectedId === null ? null : entryIdOf(selectedId);
  const jumps = useMemo(() => jumpMenu(graph.rows, model.landmarks, leafId), [graph.rows, model.landmarks, leafId]);
  const footer = formatFooter(footerIndex(visible, selectedId), visible.length, filter);

  return (
    <section
      ref={regionRef}
      aria-label="Session tree"
      tabIndex={-1}
      className={`tree-canvas flex h-full min-h-0 flex-col ${props.className ?? ""}`}
      onKeyDown={onKeyDown}
      onFocus={onFocus}
    >
      <TreeToolbar
        filter={filter}
        onFilterChange={props.onFilterChange}
        search={search}
        onSearchChange={props.onSearchChange}
        footer={footer}
        view={view}
        onViewChange={setView}
        minimap={minimap}
        onMinimapChange={setMinimap}
        onFitView={fit}
        onGoToLeaf={viewport.goToLeaf}
        zoomLevel={zoomLevel}
        onZoomLevelChange={zoom.setLevel}
        jumpGroups={jumps}
        onJump={viewport.jumpToEntry}
        archivedCount={graph.archive.roots.size}
        showArchived={props.showArchived}
        onShowArchivedChange={props.onShowArchived}
        canGoToLeaf={leafId !== null}
        searchRef={searchRef}
        {...(costs.size > 0 ? { colourByCost: byCost, onColourByCostChange: setByCost } : {})}
      />
      {props.loading ? <TreeLoadingStrip note={props.loading} /> : null}
      <div ref={paneRef} className="relative min-h-0 flex-1">
        {view === "canvas" ? (
          <BranchCostContext.Provider value={costs}>
          <CostHeatContext.Provider value={heat}>
          <TreeActionsContext.Provider value={actions}>
            <TreeFlowView
              model={model}
              selectedId={selectedId}
              minimap={minimap}
              onInit={viewport.onInit}
              onNodeClick={onNodeClick}
              onNodeDoubleClick={onNodeDoubleClick}
              onNodeContextMenu={onNodeContextMenu}
              onMoveEnd={zoom.onMoveEnd}
              onJump={viewport.jumpTo}
              onFit={fit}
              onZoomed={zoom.applyZoom}
            />
            {visible.length === 0 ? (
              <p className="pointer-events-none absolute inset-x-0 top-6 text-center text-muted">
                {emptyText(skeleton.length)}
              </p>
            ) : null}
          </TreeActionsContext.Provider>
          </CostHeatContext.Provider>
          </BranchCostContext.Provider>
        ) : (
          <TreeList
            rows={visible}
            totalEntries={skeleton.length}
            selectedId={selectedEntry}
            onSelect={select}
            onActivate={onActivate}
            hereId={graph.hereId}
          />
        )}
      </div>
      {menu ? <EntryMenu request={menu} onAction={contextAction} onClose={closeMenu} /> : null}
    </section>
  );
}
