"use client";
/**
 * Captions of the canvas (ui.md "visual language"): drawn in screen space over the React Flow
 * pane, 13 px at every zoom (Fit view included), beside the node they name
 * (caption-placement.ts), never over a card, the minimap, the zoom buttons or one another. The
 * landmarks always; zoomed out, where cards are too small to read, also the map's turn captions
 * (map-captions.ts: errors, pauses, prompts). Landmarks outside the view are listed along the top
 * and bottom edges ("↑ first kept"); every caption is a button that brings its node into view.
 * Render inside <ReactFlow> (it reads the viewport from React Flow's store).
 */
import { useStore } from "@xyflow/react";
import { useMemo } from "react";
import { CAPTION_HEIGHT, placeLandmarks, type ScreenBox } from "@/components/tree/layout/caption-placement";
import type { Landmark } from "@/components/tree/model/landmarks";
import { NODE_HEIGHT, ROW_GAP } from "@/components/tree/layout/layout";
import { PROMPT_CAPTION_ZOOM } from "@/components/tree/layout/map-captions";
import { leafScreenBox, minimapRect, treeScreenBox, zoomButtonsRect } from "@/components/tree/layout/overlay-rects";
import type { TreeModel } from "@/components/tree/hooks/use-tree-model";

/** Off-screen landmarks listed per edge. */
const EDGE_MAX = 3;

function Parts({ landmark }: { landmark: Landmark }) {
  return (
    <>
      {landmark.parts.map((p) => (
        <span key={p.kind + p.text} className={`tree-landmark__part tree-landmark__part--${p.kind}`}>
          {p.text}
        </span>
      ))}
    </>
  );
}

/** The screen boxes of the drawn cards inside the pane (the layout's nodes and the session start). */
function cardBoxes(model: TreeModel, tx: number, ty: number, zoom: number, pane: { width: number; height: number }): ScreenBox[] {
  const out: ScreenBox[] = [];
  const push = (p: { x: number; y: number }, w: number, h: number) => {
    const x = p.x * zoom + tx;
    const y = p.y * zoom + ty;
    const width = w * zoom;
    const height = h * zoom;
    if (x + width < 0 || y + height < 0 || x > pane.width || y > pane.height) return;
    out.push({ x, y, width, height });
  };
  for (const n of model.layout.nodes) push(n.position, n.width ?? 0, n.height ?? 0);
  for (const n of model.bandNodes) if (n.type === "start") push(n.position, n.width ?? 0, n.height ?? 0);
  return out;
}

export function TreeLandmarks({ model, minimap, onJump }: { model: TreeModel; minimap: boolean; onJump: (l: Landmark) => void }) {
  const tx = useStore((s) => s.transform[0]);
  const ty = useStore((s) => s.transform[1]);
  const zoom = useStore((s) => s.transform[2]);
  const width = useStore((s) => s.width);
  const height = useStore((s) => s.height);
  const { layout, landmarks, captions } = model;

  const placement = useMemo(() => {
    const pane = { width, height };
    // Between two rows there is room for a caption above the node once zoomed in far enough.
    const aboveNode = (ROW_GAP - NODE_HEIGHT) * zoom >= CAPTION_HEIGHT + 4;
    const obstacles = cardBoxes(model, tx, ty, zoom, pane);
    obstacles.push(zoomButtonsRect(pane));
    const map = minimap ? minimapRect(pane, leafScreenBox(model, [tx, ty, zoom]), treeScreenBox(model, [tx, ty, zoom])) : null;
    if (map) obstacles.push(map);
    const all = zoom < PROMPT_CAPTION_ZOOM ? landmarks.concat(captions) : landmarks;
    return placeLandmarks(
      all,
      (l) => {
        const i = layout.index.get(l.nodeId);
        const n = i === undefined ? undefined : layout.nodes[i];
        if (!n) return undefined;
        return { x: n.position.x * zoom + tx, y: n.position.y * zoom + ty, width: (n.width ?? 0) * zoom, height: (n.height ?? 0) * zoom };
      },
      pane,
      { aboveNode, obstacles },
    );
  }, [model, landmarks, captions, layout, tx, ty, zoom, width, height, minimap]);

  if (width === 0 || landmarks.length + captions.length === 0) return null;
  return (
    <nav className="tree-landmarks" aria-label="Landmarks">
      {placement.captions.map((c) => (
        <button
          key={c.landmark.nodeId + c.landmark.parts[0]!.kind}
          type="button"
          className="tree-landmark nodrag nopan"
          style={{ left: c.x, top: c.y, width: c.width }}
          data-landmark={c.landmark.parts.map((p) => p.kind).join(" ")}
          onClick={() => onJump(c.landmark)}
        >
          <Parts landmark={c.landmark} />
        </button>
      ))}
      {(["above", "below"] as const).map((edge) =>
        placement[edge].length > 0 ? (
          <div key={edge} className={`tree-landmarks__edge tree-landmarks__edge--${edge}`}>
            {placement[edge].slice(0, EDGE_MAX).map((l) => (
              <button key={l.nodeId} type="button" className="tree-landmark tree-landmark--edge nodrag nopan" onClick={() => onJump(l)}>
                <span aria-hidden="true">{edge === "above" ? "↑" : "↓"}</span>
                <span className="sr-only">{edge === "above" ? "Above the view:" : "Below the view:"}</span>
                <Parts landmark={{ ...l, parts: l.parts.filter((p) => p.kind !== "when") }} />
              </button>
            ))}
          </div>
        ) : null,
      )}
    </nav>
  );
}
