"use client";
/**
 * Landmark captions of the canvas (ui.md "visual language"): drawn in screen space over the
 * React Flow pane, 13 px at every zoom (Fit view included), beside the node they name
 * (landmarks.ts `placeLandmarks`). Landmarks outside the view are listed along the top and
 * bottom edges ("↑ first kept"); every caption is a button that brings its node into view.
 * Render inside <ReactFlow> (it reads the viewport from React Flow's store).
 */
import { useStore } from "@xyflow/react";
import { useMemo } from "react";
import { type Landmark, placeLandmarks } from "@/components/tree/landmarks";
import type { TreeModel } from "@/components/tree/use-tree-model";
import { ROW_GAP, NODE_HEIGHT } from "@/components/tree/layout";

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

export function TreeLandmarks({ model, onJump }: { model: TreeModel; onJump: (l: Landmark) => void }) {
  const tx = useStore((s) => s.transform[0]);
  const ty = useStore((s) => s.transform[1]);
  const zoom = useStore((s) => s.transform[2]);
  const width = useStore((s) => s.width);
  const height = useStore((s) => s.height);
  const { layout, landmarks } = model;

  const placement = useMemo(() => {
    // Between two rows there is room for a caption above the node once zoomed in far enough.
    const aboveNode = (ROW_GAP - NODE_HEIGHT) * zoom >= 26;
    return placeLandmarks(
      landmarks,
      (l) => {
        const i = layout.index.get(l.nodeId);
        const n = i === undefined ? undefined : layout.nodes[i];
        if (!n) return undefined;
        return { x: n.position.x * zoom + tx, y: n.position.y * zoom + ty, width: (n.width ?? 0) * zoom, height: (n.height ?? 0) * zoom };
      },
      { width, height },
      { aboveNode },
    );
  }, [landmarks, layout, tx, ty, zoom, width, height]);

  if (width === 0 || landmarks.length === 0) return null;
  return (
    <nav className="tree-landmarks" aria-label="Landmarks">
      {placement.captions.map((c) => (
        <button
          key={c.landmark.nodeId}
          type="button"
          className="tree-landmark nodrag nopan"
          style={{ left: c.x, top: c.y }}
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
                <Parts landmark={l} />
              </button>
            ))}
          </div>
        ) : null,
      )}
    </nav>
  );
}
