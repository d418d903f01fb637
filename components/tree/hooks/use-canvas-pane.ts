"use client";
/**
 * The canvas and its pane (ui.md "A map of a real session"):
 * - `usePaneShape`: measures the pane and reports its size bucket (wrap-layout.ts paneShape), so
 *   the overview wraps to fill it; when the size changes after the first view, the node at the
 *   pane's centre is kept where it is across the new layout.
 * - `useFitMap`: Fit view shows the aggregated map — expanded spans (spans.ts) collapse first,
 *   and the layout without them is fitted once it is in.
 */
import { type RefObject, useCallback, useEffect, useLayoutEffect, useRef } from "react";
import type { useCanvasViewport } from "@/components/tree/hooks/use-canvas-viewport";
import type { useSemanticZoom } from "@/components/tree/hooks/use-semantic-zoom";
import type { TreeModel } from "@/components/tree/hooks/use-tree-model";
import { type Pane, paneShape } from "@/components/tree/layout/wrap-layout";

type Zoom = ReturnType<typeof useSemanticZoom>;
type Viewport = ReturnType<typeof useCanvasViewport>;

export function usePaneShape(paneRef: RefObject<HTMLElement | null>, pane: Pane, onPane: (pane: Pane) => void, zoom: Zoom, ready: boolean): void {
  const { keepAnchor, zoomLevel } = zoom;
  useLayoutEffect(() => {
    const el = paneRef.current;
    if (!el) return;
    const measure = () => {
      const next = paneShape(el.clientWidth, el.clientHeight);
      if (next.width === pane.width && next.height === pane.height) return;
      if (el.clientWidth > 0 && ready && zoomLevel === "overview") keepAnchor();
      onPane(next);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [paneRef, pane, onPane, keepAnchor, ready, zoomLevel]);
}

export function useFitMap(zoom: Zoom, viewport: Viewport, model: TreeModel): () => void {
  const fitAfterLayout = useRef(false);
  const { expandedSpans, collapseSpans } = zoom;
  const { fitAll } = viewport;
  const fit = useCallback(() => {
    if (expandedSpans.size === 0) return fitAll();
    fitAfterLayout.current = true;
    collapseSpans();
  }, [expandedSpans, collapseSpans, fitAll]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the layout without the spans is in (model.layout), not on what it reads.
  useEffect(() => {
    if (!fitAfterLayout.current) return;
    fitAfterLayout.current = false;
    fitAll();
  }, [model.layout, fitAll]);
  return fit;
}
