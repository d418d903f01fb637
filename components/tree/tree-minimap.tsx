"use client";
/**
 * The canvas minimap (ui.md): the tree's real shape at a glance, drawn on a <canvas> (one
 * draw per layout, not one React component per node, so 100k entries cost a few ms), with
 * the landmarks on top — compaction boundaries (amber bars), "first kept" (amber dot), branch
 * points (diamonds), labels (squares), the current leaf (a ring) — and the viewport as a
 * rectangle. Columns and rows are scaled separately so a long, mostly linear session still
 * shows its branches. Click or drag to move the view there. It sits in a corner that does not
 * cover the current leaf (overlay-rects.ts), and is hidden when no corner is free or the pane is
 * too small. Render inside <ReactFlow>.
 */
import { type ReactFlowInstance, useStore } from "@xyflow/react";
import { type PointerEvent, useEffect, useMemo, useRef } from "react";
import { useColorScheme } from "@/components/theme/use-color-scheme";
import { COL_GAP, NODE_HEIGHT, NODE_WIDTH } from "@/components/tree/layout/layout";
import { leafScreenBox, MINIMAP_H, MINIMAP_W, minimapRect, treeScreenBox } from "@/components/tree/layout/overlay-rects";
import type { CanvasNode, TreeEdge } from "@/components/tree/types";
import type { TreeModel } from "@/components/tree/hooks/use-tree-model";

const W = MINIMAP_W;
const H = MINIMAP_H;
const PAD = 6;

export interface MinimapScale {
  sx: number;
  sy: number;
  ox: number;
  oy: number;
}

/** Flow → minimap pixels: rows fill the height, at most four columns' worth fill the width. */
export function minimapScale(bounds: { width: number; height: number }): MinimapScale {
  const sx = (W - 2 * PAD) / Math.max(bounds.width, 4 * COL_GAP);
  const sy = (H - 2 * PAD) / Math.max(bounds.height, 1);
  const ox = PAD + (W - 2 * PAD - bounds.width * sx) / 2;
  return { sx, sy, ox, oy: PAD };
}

function cssVar(el: Element, name: string, fallback: string): string {
  return getComputedStyle(el).getPropertyValue(name).trim() || fallback;
}

export function TreeMinimap({ model, flow }: { model: TreeModel; flow: ReactFlowInstance<CanvasNode, TreeEdge> }) {
  const ref = useRef<HTMLCanvasElement>(null);
  const { layout, landmarks } = model;
  const scale = useMemo(() => minimapScale(layout.bounds), [layout.bounds]);
  const colorScheme = useColorScheme();

  const [tx, ty, zoom] = useStore((s) => s.transform);
  const pw = useStore((s) => s.width);
  const ph = useStore((s) => s.height);
  // A corner that does not cover the current leaf; none (hidden) when every corner would.
  const at = minimapRect({ width: pw, height: ph }, leafScreenBox(model, [tx, ty, zoom]), treeScreenBox(model, [tx, ty, zoom]));
  const shown = at !== null;

  // biome-ignore lint/correctness/useExhaustiveDependencies: colorScheme redraws (the colours are CSS variables that change with the theme); shown: the canvas is new when it reappears.
  useEffect(() => {
    const canvas = ref.current;
    const ctx = canvas?.getContext("2d");
    if (!canvas || !ctx) return;
    const dpr = window.devicePixelRatio || 1;
    canvas.width = W * dpr;
    canvas.height = H * dpr;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, W, H);
    const accent = cssVar(canvas, "--color-accent", "#2563eb");
    const muted = cssVar(canvas, "--muted", "#6b7280");
    const amber = cssVar(canvas, "--color-compaction", "#b45309");
    const branch = cssVar(canvas, "--color-branch", "#7c3aed");
    const fg = cssVar(canvas, "--fg", "#111");
    const { sx, sy, ox, oy } = scale;
    const w = Math.max(2, NODE_WIDTH * sx);
    const h = Math.max(1, NODE_HEIGHT * sy);
    for (const n of layout.nodes) {
      ctx.fillStyle = n.type === "compaction" ? amber : n.type === "branchSummary" ? branch : n.data.isActive ? accent : muted;
      ctx.globalAlpha = n.data.isActive ? 1 : 0.55;
      ctx.fillRect(ox + n.position.x * sx, oy + n.position.y * sy, w, h);
    }
    ctx.globalAlpha = 1;
    for (const l of landmarks) {
      const i = layout.index.get(l.nodeId);
      if (i === undefined) continue;
      const p = layout.nodes[i]!.position;
      const x = ox + p.x * sx + w / 2;
      const y = oy + p.y * sy + h / 2;
      for (const part of l.parts) {
        if (part.kind === "compaction") {
          ctx.fillStyle = amber;
          ctx.fillRect(x - 10, y - 1.5, 20, 3);
        } else if (part.kind === "firstKept") {
          ctx.fillStyle = amber;
          ctx.beginPath();
          ctx.arc(x + 8, y, 3, 0, 2 * Math.PI);
          ctx.fill();
        } else if (part.kind === "branchPoint" || part.kind === "branchSummary") {
          ctx.fillStyle = part.kind === "branchSummary" ? branch : fg;
          ctx.beginPath();
          ctx.moveTo(x, y - 4);
          ctx.lineTo(x + 4, y);
          ctx.lineTo(x, y + 4);
          ctx.lineTo(x - 4, y);
          ctx.fill();
        } else if (part.kind === "label") {
          ctx.fillStyle = accent;
          ctx.fillRect(x - 8, y - 2.5, 5, 5);
        } else {
          ctx.strokeStyle = accent;
          ctx.lineWidth = 2;
          ctx.beginPath();
          ctx.arc(x, y, 5, 0, 2 * Math.PI);
          ctx.stroke();
        }
      }
    }
  }, [layout, landmarks, scale, colorScheme, shown]);

  const { sx, sy, ox, oy } = scale;
  const view = {
    left: Math.max(0, ox + (-tx / zoom) * sx),
    top: Math.max(0, oy + (-ty / zoom) * sy),
    right: Math.min(W, ox + ((pw - tx) / zoom) * sx),
    bottom: Math.min(H, oy + ((ph - ty) / zoom) * sy),
  };

  const moveTo = (e: PointerEvent<HTMLDivElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    const x = (e.clientX - r.left - ox) / sx;
    const y = (e.clientY - r.top - oy) / sy;
    void flow.setCenter(x, y, { zoom: flow.getZoom() });
  };

  if (!at) return null;
  return (
    <div
      className="tree-minimap nodrag nopan nowheel"
      role="img"
      aria-label={`Minimap of the session tree: ${landmarks.length} landmarks`}
      style={{ left: at.x, top: at.y, width: W, height: H }}
      onPointerDown={(e) => {
        e.currentTarget.setPointerCapture(e.pointerId);
        moveTo(e);
      }}
      onPointerMove={(e) => {
        if (e.buttons === 1) moveTo(e);
      }}
    >
      <canvas ref={ref} style={{ width: W, height: H }} />
      {view.right > view.left && view.bottom > view.top ? (
        <div
          className="tree-minimap__view"
          style={{ left: view.left, top: view.top, width: Math.max(4, view.right - view.left), height: Math.max(3, view.bottom - view.top) }}
        />
      ) : null}
    </div>
  );
}
