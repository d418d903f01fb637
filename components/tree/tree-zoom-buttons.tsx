"use client";
/**
 * "+" and "−" of the canvas (zoom-stops.ts): each click goes to the next useful zoom level,
 * keeping the selected node where it is on screen (else the "you are here" node, else the pane's
 * centre: in a wrapped overview the centre may be an empty lane), then the semantic-zoom rules
 * apply as after a wheel gesture (at 100% the turns in view show their entries); "−" from the
 * first stop is Fit view. Render inside <ReactFlow>.
 */
import { useReactFlow, useStore } from "@xyflow/react";
import type { Viewport } from "@xyflow/react";
import type { CanvasNode, TreeEdge } from "@/components/tree/types";
import { fitZoom, nextZoomStop, zoomStops } from "@/components/tree/layout/zoom-stops";

export function TreeZoomButtons({
  bounds,
  onFit,
  onZoomed,
  focus,
}: {
  bounds: { width: number; height: number };
  onFit: () => void;
  onZoomed: (vp: Viewport) => void;
  /** The flow point to zoom around when it is on screen (the selected node's centre, or the leaf's). */
  focus: () => { x: number; y: number }[];
}) {
  const flow = useReactFlow<CanvasNode, TreeEdge>();
  const width = useStore((s) => s.width);
  const height = useStore((s) => s.height);
  const minZoom = useStore((s) => s.minZoom);
  const maxZoom = useStore((s) => s.maxZoom);
  const step = (dir: 1 | -1) => {
    const fit = fitZoom(bounds, { width, height });
    const stops = zoomStops(fit, minZoom, maxZoom);
    const next = nextZoomStop(stops, flow.getZoom(), dir);
    if (next === undefined) return;
    if (next === stops[0] && dir < 0) return onFit();
    const vp = flow.getViewport();
    const onScreen = (p: { x: number; y: number }) => {
      const sx = p.x * vp.zoom + vp.x;
      const sy = p.y * vp.zoom + vp.y;
      return sx >= 0 && sy >= 0 && sx <= width && sy <= height;
    };
    const p = focus().find(onScreen);
    const sx = p ? p.x * vp.zoom + vp.x : width / 2;
    const sy = p ? p.y * vp.zoom + vp.y : height / 2;
    const fx = (sx - vp.x) / vp.zoom;
    const fy = (sy - vp.y) / vp.zoom;
    const target = { x: sx - fx * next, y: sy - fy * next, zoom: next };
    void flow.setViewport(target, { duration: 200 }).then(() => onZoomed(target));
  };
  return (
    <div className="tree-zoom nodrag nopan">
      <button type="button" aria-label="Zoom in" title="Zoom in (next level)" onClick={() => step(1)}>
        +
      </button>
      <button type="button" aria-label="Zoom out" title="Zoom out (next level)" onClick={() => step(-1)}>
        −
      </button>
    </div>
  );
}
