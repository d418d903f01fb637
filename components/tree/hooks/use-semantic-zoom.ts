"use client";
/**
 * Semantic zoom of the tree canvas (ui.md "visual language"): which level the canvas draws
 * and which overview turns are shown as entries.
 *
 * - A long session's overview draws runs of turns as spans (spans.ts), except `expandedSpans`:
 *   a span expands (double-click, Enter, "Show turns") or when a zoom ends at SPAN_ZOOM or closer
 *   with it in view; Fit view draws the spans again.
 * - "overview": one node per turn (turns.ts), except `expandedTurns`; "detail": one node per
 *   entry (as before turns existed). Deep links and small sessions open in detail, the rest in
 *   the overview.
 * - Zooming in (a wheel or pinch gesture ending at zoom >= DETAIL_ZOOM) in the overview expands the turns
 *   in view; zooming out to <= OVERVIEW_ZOOM collapses every turn (and leaves "detail").
 *   Only the turns in view expand, so zooming into a 100k-entry session re-lays out a few
 *   hundred nodes, not the whole session.
 * - Every change keeps one anchor still on screen: the node nearest the pane's centre (its
 *   entry, found again in the new layout), so the user does not lose their place.
 */
import type { ReactFlowInstance, Viewport } from "@xyflow/react";
import { useCallback, useEffect, useRef, useState } from "react";
import { type CanvasNode, isSpanId, type TreeEdge } from "@/components/tree/types";
import type { TreeModel, ZoomLevel } from "@/components/tree/hooks/use-tree-model";

export const DETAIL_ZOOM = 1;
export const OVERVIEW_ZOOM = 0.45;
/** A zoom ending this close or closer shows the turns of the spans in view. */
export const SPAN_ZOOM = 0.3;
const EMPTY: ReadonlySet<string> = new Set();

interface Anchor {
  entryId: string;
  /** Screen position of the node's top-left corner before the change. */
  sx: number;
  sy: number;
  zoom: number;
}

/**
 * The level state and its gestures. The model is built from the returned state, so the
 * caller hands it back through `modelRef` and calls `useRestoreAnchor` after building it.
 */
export function useSemanticZoom(flow: ReactFlowInstance<CanvasNode, TreeEdge>, initial: ZoomLevel) {
  const [zoomLevel, setZoomLevel] = useState<ZoomLevel>(initial);
  const [expandedTurns, setExpandedTurns] = useState<ReadonlySet<string>>(EMPTY);
  const [expandedSpans, setExpandedSpans] = useState<ReadonlySet<string>>(EMPTY);
  const modelRef = useRef<TreeModel | null>(null);
  const pending = useRef<Anchor | null>(null);
  const expandedTurnsRef = useRef(expandedTurns);
  expandedTurnsRef.current = expandedTurns;

  /** The node nearest the viewport's centre, as an anchor. */
  const anchorAtCentre = useCallback(
    (vp: Viewport, pane: { width: number; height: number }): Anchor | null => {
      const m = modelRef.current;
      if (!m) return null;
      const cx = (pane.width / 2 - vp.x) / vp.zoom;
      const cy = (pane.height / 2 - vp.y) / vp.zoom;
      let best = -1;
      let bestD = Number.POSITIVE_INFINITY;
      const nodes = m.layout.nodes;
      for (let i = 0; i < nodes.length; i++) {
        const p = nodes[i]!.position;
        const d = Math.abs(p.x + 140 - cx) + Math.abs(p.y + 38 - cy);
        if (d < bestD) {
          bestD = d;
          best = i;
        }
      }
      if (best < 0) return null;
      const n = nodes[best]!;
      return { entryId: n.data.entryId, sx: n.position.x * vp.zoom + vp.x, sy: n.position.y * vp.zoom + vp.y, zoom: vp.zoom };
    },
    [],
  );

  const paneSize = useCallback(() => {
    const el = document.querySelector<HTMLElement>(".tree-canvas .react-flow");
    return { width: el?.clientWidth ?? 0, height: el?.clientHeight ?? 0 };
  }, []);

  const setLevel = useCallback(
    (level: ZoomLevel) => {
      pending.current = anchorAtCentre(flow.getViewport(), paneSize());
      setZoomLevel(level);
      setExpandedTurns(EMPTY);
      setExpandedSpans(EMPTY);
    },
    [flow, anchorAtCentre, paneSize],
  );

  const expandTurn = useCallback((id: string) => {
    const set = isSpanId(id) ? setExpandedSpans : setExpandedTurns;
    set((prev) => (prev.has(id) ? prev : new Set(prev).add(id)));
  }, []);

  /**
   * The level rules for a zoom the user made (a wheel or pinch gesture, or the "+" / "−" buttons):
   * at OVERVIEW_ZOOM or less every turn collapses; at DETAIL_ZOOM or more the turns in view expand.
   */
  const applyZoom = useCallback(
    (vp: Viewport) => {
      const m = modelRef.current;
      if (!m) return;
      const pane = paneSize();
      if (vp.zoom <= OVERVIEW_ZOOM + 1e-3 && (m.zoomLevel === "detail" || expandedTurnsRef.current.size > 0)) {
        pending.current = anchorAtCentre(vp, pane);
        setZoomLevel("overview");
        setExpandedTurns(EMPTY);
        return;
      }
      if (m.zoomLevel !== "overview") return;
      const kind = vp.zoom >= DETAIL_ZOOM - 1e-3 ? "turn" : vp.zoom >= SPAN_ZOOM - 1e-3 ? "span" : null;
      if (kind === null) return;
      // Expand the collapsed turns (or, less close, the spans) in view.
      const x0 = -vp.x / vp.zoom;
      const y0 = -vp.y / vp.zoom;
      const x1 = x0 + pane.width / vp.zoom;
      const y1 = y0 + pane.height / vp.zoom;
      const inView: string[] = [];
      for (const n of m.layout.nodes) {
        if (n.type !== kind) continue;
        const { x, y } = n.position;
        if (x + (n.width ?? 0) >= x0 && x <= x1 && y + (n.height ?? 0) >= y0 && y <= y1) inView.push(n.id);
      }
      if (inView.length === 0) return;
      pending.current = anchorAtCentre(vp, pane);
      (kind === "span" ? setExpandedSpans : setExpandedTurns)((prev) => {
        const next = new Set(prev);
        for (const id of inView) next.add(id);
        return next;
      });
    },
    [anchorAtCentre, paneSize],
  );

  /**
   * React Flow's onMoveEnd: only zoom gestures (wheel, pinch) change the level — not Fit view,
   * Go to current leaf or a jump, whose transitions may carry the button's click as their event.
   */
  const onMoveEnd = useCallback(
    (event: MouseEvent | TouchEvent | null, vp: Viewport) => {
      const gesture = event !== null && (event.type === "wheel" || event.type.startsWith("touch"));
      if (gesture) applyZoom(vp);
    },
    [applyZoom],
  );

  /** Keeps the node at the pane's centre where it is across the next layout change (a pane resize). */
  const keepAnchor = useCallback(() => {
    pending.current = anchorAtCentre(flow.getViewport(), paneSize());
  }, [flow, anchorAtCentre, paneSize]);

  /** Fit view: the spans are drawn again (the aggregated map). */
  const collapseSpans = useCallback(() => setExpandedSpans(EMPTY), []);

  return { zoomLevel, expandedTurns, expandedSpans, setLevel, expandTurn, collapseSpans, onMoveEnd, applyZoom, modelRef, pending, keepAnchor };
}

/** Puts the pending anchor back where it was once the new layout is in. */
export function useRestoreAnchor(flow: ReactFlowInstance<CanvasNode, TreeEdge>, zoom: ReturnType<typeof useSemanticZoom>, model: TreeModel) {
  zoom.modelRef.current = model;
  const { layout } = model;
  const { pending } = zoom;
  useEffect(() => {
    const a = pending.current;
    const m = zoom.modelRef.current;
    if (!a || !m || m.layout !== layout) return;
    pending.current = null;
    const nodeId = m.flow.nodeOf.get(a.entryId) ?? a.entryId;
    const i = m.layout.index.get(nodeId);
    if (i === undefined) return;
    const p = m.layout.nodes[i]!.position;
    void flow.setViewport({ x: a.sx - p.x * a.zoom, y: a.sy - p.y * a.zoom, zoom: a.zoom });
  }, [layout, flow, pending, zoom.modelRef]);
}
