"use client";
/**
 * Viewport behaviour of the tree canvas (ui.md): the first view (fit a small tree; the
 * overview frames the current leaf's latest turns; else the current leaf at 100%), following the leaf when it changes (a message was sent or the page
 * navigated), the `centerOn` deep link, "Fit view", "Go to current leaf", and revealing the
 * selection (pan only when it is out of view; focus it after keyboard moves).
 */
import type { ReactFlowInstance } from "@xyflow/react";
import { type RefObject, useCallback, useEffect, useRef, useState } from "react";
import type { TreeView } from "@/components/tree/tree-toolbar";
import type { CanvasNode, TreeEdge } from "@/components/tree/types";
import type { TreeModel } from "@/components/tree/hooks/use-tree-model";
import { NODE_WIDTH } from "@/components/tree/layout/layout";
import { initialSelection, resolveSelection } from "@/lib/session/tree/tree-graph";

/** Trees this small open fitted to the pane; bigger ones open on the current leaf. */
const FIT_ON_OPEN_MAX_NODES = 30;
const REVEAL_MARGIN = 60;
/** The overview opens framing the current leaf's node and this many nodes up its path. */
const LATEST_TURNS = 5;
/** Zoom of the opening overview (turn cards readable) and the least zoom of a jump. */
const OPEN_ZOOM = 0.85;

/** The node showing "you are here" (the leaf's, or its nearest visible ancestor's). */
export function hereNode(model: TreeModel): string | undefined {
  const here = model.flow.hereId;
  return here === null ? undefined : model.flow.nodeOf.get(here);
}

export interface CanvasViewportOptions {
  flow: ReactFlowInstance<CanvasNode, TreeEdge>;
  model: TreeModel;
  view: TreeView;
  leafId: string | null;
  centerOn: string | undefined;
  regionRef: RefObject<HTMLElement | null>;
  selectedId: string | null;
  /** The last id the canvas selected itself (not revealed again by the selection effect). */
  internalSelection: RefObject<string | null>;
  onSelect: (id: string) => void;
  unfold: (entryIds: readonly string[]) => void;
}

export function useCanvasViewport(o: CanvasViewportOptions) {
  const { flow, model, view, leafId, centerOn, onSelect, unfold } = o;
  const [ready, setReady] = useState(false);
  const onInit = useCallback(() => setReady(true), []);
  const latest = useRef(o);
  latest.current = o;

  const centerOf = useCallback((id: string) => {
    const { layout, flow: graph } = latest.current.model;
    const i = layout.index.get(id) ?? layout.index.get(graph.nodeOf.get(id) ?? "");
    const n = i === undefined ? undefined : layout.nodes[i];
    return n ? { x: n.position.x + (n.width ?? 0) / 2, y: n.position.y + (n.height ?? 0) / 2 } : null;
  }, []);

  const centerNode = useCallback(
    (id: string, zoom?: number, duration = 250) => {
      const c = centerOf(id);
      if (c) void flow.setCenter(c.x, c.y, { zoom: zoom ?? flow.getZoom(), duration });
    },
    [flow, centerOf],
  );

  const reveal = useCallback(
    async (id: string, focus: boolean) => {
      const pane = latest.current.regionRef.current?.querySelector<HTMLElement>(".react-flow");
      const c = centerOf(id);
      if (!pane || !c) return;
      const rect = pane.getBoundingClientRect();
      const { x, y, zoom } = flow.getViewport();
      const sx = c.x * zoom + x;
      const sy = c.y * zoom + y;
      const m = REVEAL_MARGIN;
      if (sx < m || sy < m || sx > rect.width - m || sy > rect.height - m) {
        await flow.setCenter(c.x, c.y, { zoom, duration: 150 });
      }
      if (focus) {
        requestAnimationFrame(() =>
          pane.querySelector<HTMLElement>(`.react-flow__node[data-id="${CSS.escape(id)}"]`)?.focus({ preventScroll: true }),
        );
      }
    },
    [flow, centerOf],
  );

  // First view, once React Flow has measured its pane.
  const opened = useRef(false);
  useEffect(() => {
    if (!ready || opened.current) return;
    opened.current = true;
    const { model: m, centerOn: deepLink } = latest.current;
    if (deepLink) return; // the deep-link effect positions the view
    const pane = latest.current.regionRef.current?.querySelector<HTMLElement>(".react-flow");
    const open = () => {
      if (m.layout.nodes.length <= FIT_ON_OPEN_MAX_NODES) {
        void flow.fitView({ padding: 0.15, maxZoom: 1 });
        return;
      }
      const target = hereNode(m) ?? m.layout.nodes.at(-1)?.id;
      if (!target) return;
      if (m.zoomLevel === "overview" && pane) frameLatest(target, pane);
      else centerNode(target, 1, 0);
    };
    // The overview opens on the current leaf's latest turns: its node and a few ancestors.
    const frameLatest = (target: string, el: HTMLElement) => {
      const { layout } = m;
      let i = layout.index.get(target) ?? -1;
      let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
      const column = layout.nodes[i]?.position.x ?? 0;
      for (let k = 0; i >= 0 && k < LATEST_TURNS; k++, i = layout.parent[i]!) {
        const n = layout.nodes[i]!;
        // Up its own column only: in a wrapped overview the turn before may be a slab away.
        if (k > 0 && Math.abs(n.position.x - column) > NODE_WIDTH) break;
        x0 = Math.min(x0, n.position.x);
        y0 = Math.min(y0, n.position.y);
        x1 = Math.max(x1, n.position.x + (n.width ?? 0));
        y1 = Math.max(y1, n.position.y + (n.height ?? 0));
      }
      const zoom = Math.min(OPEN_ZOOM, (el.clientWidth * 0.8) / (x1 - x0), (el.clientHeight * 0.85) / (y1 - y0));
      // Leaf near the bottom, its latest turns above it.
      void flow.setViewport({ x: el.clientWidth / 2 - ((x0 + x1) / 2) * zoom, y: el.clientHeight * 0.92 - y1 * zoom, zoom }, { duration: 0 });
    };
    // The pane may still be 0×0 when React Flow initialises (the surrounding split restores its
    // stored size after mount); centring then would put the leaf off-screen. Wait for a size.
    const sized = (el: HTMLElement) => el.clientWidth > 0 && el.clientHeight > 0;
    if (!pane || sized(pane)) return open();
    const observer = new ResizeObserver(() => {
      if (!sized(pane)) return;
      observer.disconnect();
      requestAnimationFrame(open);
    });
    observer.observe(pane);
    return () => observer.disconnect();
  }, [ready, flow, centerNode]);

  // Follow the current leaf when it changes (this wins over revealing the selection).
  const lastLeaf = useRef(leafId);
  const lastLeafNode = useRef<string | undefined>(hereNode(model));
  const followedLeaf = useRef(false);
  useEffect(() => {
    if (lastLeaf.current === leafId) return;
    lastLeaf.current = leafId;
    const shown = hereNode(model);
    // A new leaf drawn by the same node (a label, pin or settings entry appended under it, hidden by
    // the filter, shows "you are here" on its parent's node) changes nothing on screen: keep the
    // view where the user is working.
    const sameNode = shown !== undefined && shown === lastLeafNode.current;
    lastLeafNode.current = shown;
    if (!ready || view !== "canvas" || !shown || sameNode) return;
    followedLeaf.current = true;
    centerNode(shown);
  }, [leafId, model, ready, view, centerNode]);

  // Deep link: centre and select `centerOn` once per value (unfolding its run first).
  const centred = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (!centerOn || centred.current === centerOn) return;
    const { rows, rowOf, nodeOf } = model.flow;
    if (!rowOf.has(centerOn)) {
      centred.current = centerOn; // unknown entry: nothing to show
      return;
    }
    const shown = nodeOf.get(centerOn);
    if (shown !== undefined && shown !== centerOn) {
      unfold([centerOn]);
      return;
    }
    const target = shown ?? resolveSelection(rows, centerOn);
    if (target === null) return;
    if (view === "canvas" && !ready) return;
    centred.current = centerOn;
    onSelect(target);
    const node = nodeOf.get(target);
    if (view === "canvas" && node) centerNode(node, 1);
  }, [centerOn, model, ready, view, onSelect, unfold, centerNode]);

  // Keep the selection in view (pan only when it is out of view) when it was changed from
  // outside (e.g. the chat inspects a turn) or when the layout changed under it (filter,
  // search, unfold). The canvas's own moves are revealed where they happen.
  // A selected entry inside an overview turn is kept in view through its turn's node.
  const { selectedId, internalSelection } = o;
  const { layout, flow: graph } = model;
  const seen = useRef({ id: selectedId, layout });
  useEffect(() => {
    const prev = seen.current;
    if (prev.id === selectedId && prev.layout === layout) return;
    const node = selectedId === null ? undefined : layout.index.has(selectedId) ? selectedId : graph.nodeOf.get(selectedId);
    if (!ready || view !== "canvas" || selectedId === null || node === undefined || !layout.index.has(node)) {
      // Not checkable yet (e.g. the selection is being moved off a hidden entry): keep the
      // old layout so the resolved selection still counts as "layout changed".
      seen.current = { id: selectedId, layout: prev.layout };
      return;
    }
    seen.current = { id: selectedId, layout };
    if (followedLeaf.current) {
      followedLeaf.current = false;
      return;
    }
    if (prev.layout !== layout || selectedId !== internalSelection.current) void reveal(node, false);
  }, [selectedId, layout, graph, internalSelection, ready, view, reveal]);

  // The layout's bounds (a windowed canvas holds only the nodes near the view, flow-window.ts; a
  // wrapped one has a caption lane after its last slab, wrap-layout.ts).
  const fitAll = useCallback(() => {
    void flow.fitBounds(latest.current.model.layout.bounds, { padding: 0.1, duration: 300 });
  }, [flow]);

  const goToLeaf = useCallback(() => {
    const { model: m, leafId: leaf, view: v } = latest.current;
    if (leaf === null) return;
    const target = m.flow.nodeOf.has(leaf) ? leaf : initialSelection(m.flow.rows, leaf);
    if (target === null) return;
    latest.current.onSelect(target);
    const node = m.flow.nodeOf.get(target);
    if (v === "canvas" && node) centerNode(node, 1, 300);
  }, [centerNode]);

  /** "Jump to" and landmark captions: centre the node (readable zoom) and select its entry. */
  const jumpTo = useCallback(
    (target: { nodeId: string; entryId: string }) => {
      const c = centerOf(target.nodeId);
      if (!c) return;
      latest.current.onSelect(target.entryId);
      void flow.setCenter(c.x, c.y, { zoom: Math.max(flow.getZoom(), OPEN_ZOOM), duration: 300 });
    },
    [flow, centerOf],
  );

  /** "Jump to": the node drawing the entry (or its nearest visible ancestor), as jumpTo. */
  const jumpToEntry = useCallback(
    (entryId: string) => {
      const { rows, nodeOf } = latest.current.model.flow;
      const shown = nodeOf.has(entryId) ? entryId : resolveSelection(rows, entryId);
      const nodeId = shown === null ? undefined : nodeOf.get(shown);
      if (shown !== null && nodeId !== undefined) jumpTo({ nodeId, entryId: shown });
    },
    [jumpTo],
  );

  return { onInit, reveal, fitAll, goToLeaf, jumpTo, jumpToEntry, ready };
}
