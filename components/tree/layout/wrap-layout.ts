/**
 * The overview's use of the pane's whole width (ui.md "A map of a real session"): a tall layout
 * (a long, mostly linear session is one column of hundreds of rows) is cut into slabs of rows
 * laid side by side, like newspaper columns read top to bottom then left to right, so Fit view
 * shows it at a zoom where its marks and captions are readable instead of as a one-pixel column.
 * Pure: no React, no DOM. O(nodes + columns × slabs) time.
 *
 * Contract:
 * - Input: a tidy layout (layout.ts: a column is a chain of consecutive depths) and the pane's
 *   size (paneShape buckets). Right of every slab runs a lane LANE_PX wide on screen at Fit view
 *   (in flow px: LANE_PX / zoom, within [MIN_LANE, MAX_LANE]): room for the map's captions
 *   beside the cards (map-captions.ts). The slab count is the one that fits the pane at the
 *   largest zoom (fewest slabs on a tie); with one slab the layout is returned unchanged.
 * - Slab k holds depths [k·r, (k+1)·r); inside it the columns that have a node there keep their
 *   order, packed (a branch's column sits right of its parent's as before).
 * - Tree structure (parent, children, roots, depth, column, order) is unchanged, so keyboard
 *   moves, turns and folds see the same tree; only positions, bands and bounds change. Every
 *   node still fits its own cell: no two nodes overlap.
 * - `crossing(i)` tells whether node i's tree edge from its parent crosses into another slab
 *   (the canvas then draws it as a "wrap" edge along the slab's foot, up beside it and across the
 *   next slab's head: wrapEdgeRoute).
 */
import { COL_GAP, computeBands, NODE_HEIGHT, NODE_WIDTH, ROW_GAP, type TreeLayout } from "@/components/tree/layout/layout";
import type { TreeNode } from "@/components/tree/types";

/** Screen width of the caption lane between two slabs at Fit view (px). */
export const LANE_PX = 230;
/** The lane's bounds in flow px (zoomed in, a wider lane would only be empty space to cross). */
export const MIN_LANE = 160;
export const MAX_LANE = 3200;
/** Fit view pads the tree by 10% on each side (use-canvas-viewport.ts fitAll). */
const FIT_PAD = 1.2;
/** Fewest rows a slab keeps (shorter ones would read as scattered cards). */
export const MIN_SLAB_ROWS = 4;
const MAX_SLABS = 64;

export interface WrapInfo {
  /** Rows per slab. */
  rows: number;
  /** Flow px between two slabs. */
  lane: number;
  /** Left edge of each slab and its width. */
  slabX: number[];
  slabWidth: number[];
}

export interface WrappedLayout extends TreeLayout {
  wrap?: WrapInfo;
}

/** Depth span of every column (a column is a chain of consecutive depths). */
function columnSpans(layout: TreeLayout): { top: Int32Array; bottom: Int32Array; depthCount: number } {
  const n = layout.nodes.length;
  let columns = 0;
  let depthCount = 0;
  for (let i = 0; i < n; i++) {
    columns = Math.max(columns, layout.column[i]! + 1);
    depthCount = Math.max(depthCount, layout.depth[i]! + 1);
  }
  const top = new Int32Array(columns).fill(2 ** 30);
  const bottom = new Int32Array(columns).fill(-1);
  for (let i = 0; i < n; i++) {
    const c = layout.column[i]!;
    const d = layout.depth[i]!;
    if (d < top[c]!) top[c] = d;
    if (d > bottom[c]!) bottom[c] = d;
  }
  return { top, bottom, depthCount };
}

/** Columns present in each slab when slabs hold `rows` depths. */
function slabColumnCounts(top: Int32Array, bottom: Int32Array, rows: number, slabs: number): Int32Array {
  const diff = new Int32Array(slabs + 1);
  for (let c = 0; c < top.length; c++) {
    if (bottom[c]! < 0) continue;
    diff[Math.floor(top[c]! / rows)]!++;
    diff[Math.floor(bottom[c]! / rows) + 1]!--;
  }
  const counts = new Int32Array(slabs);
  let run = 0;
  for (let k = 0; k < slabs; k++) {
    run += diff[k]!;
    counts[k] = run;
  }
  return counts;
}

const slabWidthOf = (columns: number) => Math.max(1, columns) * COL_GAP - (COL_GAP - NODE_WIDTH);

export interface Pane {
  width: number;
  height: number;
}

/** Fit view's zoom with `slabs` slabs of `slabWidths` total and `rows` rows, and the lane it leaves. */
function fitWith(pane: Pane, slabs: number, slabWidths: number, rows: number): { zoom: number; lane: number } {
  const height = rows * ROW_GAP - (ROW_GAP - NODE_HEIGHT);
  const byHeight = pane.height / FIT_PAD / height;
  if (slabs === 1) return { zoom: Math.min(byHeight, pane.width / FIT_PAD / slabWidths), lane: 0 };
  // A lane LANE_PX wide on screen right of every slab: zoom · slabWidths + slabs · LANE_PX fills the width.
  let zoom = Math.min(byHeight, (pane.width / FIT_PAD - slabs * LANE_PX) / slabWidths);
  let lane = LANE_PX / zoom;
  if (zoom <= 0 || lane > MAX_LANE) {
    lane = MAX_LANE;
    zoom = Math.min(byHeight, pane.width / FIT_PAD / (slabWidths + slabs * lane));
  }
  return { zoom, lane: Math.max(MIN_LANE, lane) };
}

/** The slab count (and lane) that fits `pane` at the largest zoom. */
export function chooseSlabs(layout: TreeLayout, pane: Pane): { slabs: number; lane: number } {
  const { top, bottom, depthCount } = columnSpans(layout);
  let best = { slabs: 1, lane: 0 };
  let bestZoom = 0;
  const most = Math.min(MAX_SLABS, Math.floor(depthCount / MIN_SLAB_ROWS));
  for (let s = 1; s <= Math.max(1, most); s++) {
    const rows = Math.ceil(depthCount / s);
    if (s > 1 && Math.ceil(depthCount / rows) < s) continue; // the same split as fewer slabs
    const counts = slabColumnCounts(top, bottom, rows, s);
    let widths = 0;
    for (let k = 0; k < s; k++) widths += slabWidthOf(counts[k]!);
    const fit = fitWith(pane, s, widths, rows);
    if (fit.zoom > bestZoom * 1.0001) {
      best = { slabs: s, lane: fit.lane };
      bestZoom = fit.zoom;
    }
  }
  return best;
}

/** The layout wrapped into slabs for `pane` (see the module contract). */
export function wrapLayout(layout: TreeLayout, pane: Pane): WrappedLayout {
  const { slabs, lane } = chooseSlabs(layout, pane);
  if (slabs <= 1) return layout;
  const { top, bottom, depthCount } = columnSpans(layout);
  const rows = Math.ceil(depthCount / slabs);
  const C = top.length;
  // Local column of (slab, column), in column order per slab.
  const local = new Int32Array(slabs * C).fill(-1);
  const counts = new Int32Array(slabs);
  for (let c = 0; c < C; c++) {
    if (bottom[c]! < 0) continue;
    for (let k = Math.floor(top[c]! / rows); k <= Math.floor(bottom[c]! / rows); k++) local[k * C + c] = counts[k]!++;
  }
  const slabX: number[] = [];
  const slabWidth: number[] = [];
  let x = 0;
  for (let k = 0; k < slabs; k++) {
    slabX.push(x);
    slabWidth.push(slabWidthOf(counts[k]!));
    x += slabWidth[k]! + lane;
  }
  const n = layout.nodes.length;
  const key = new Int32Array(n);
  const row = new Int32Array(n);
  const nodes: TreeNode[] = new Array(n);
  let maxX = 0;
  let maxY = 0;
  for (let i = 0; i < n; i++) {
    const node = layout.nodes[i]!;
    const d = layout.depth[i]!;
    const k = Math.floor(d / rows);
    const lc = local[k * C + layout.column[i]!]!;
    key[i] = k * C + layout.column[i]!;
    row[i] = d - k * rows;
    const left = slabX[k]! + lc * COL_GAP;
    const w = node.width ?? NODE_WIDTH;
    const h = node.height ?? NODE_HEIGHT;
    nodes[i] = { ...node, position: { x: left + (NODE_WIDTH - w) / 2, y: row[i]! * ROW_GAP + (NODE_HEIGHT - h) / 2 } } as TreeNode;
    maxX = Math.max(maxX, left + NODE_WIDTH);
    maxY = Math.max(maxY, row[i]! * ROW_GAP + NODE_HEIGHT);
  }
  const xOf = (k: number) => slabX[Math.floor(k / C)]! + local[k]! * COL_GAP;
  return {
    ...layout,
    nodes,
    bands: computeBands(nodes, layout.order, key, row, xOf),
    // The lane right of the last slab is part of the map (its captions), so Fit view keeps it.
    bounds: { x: 0, y: 0, width: maxX + lane, height: maxY },
    wrap: { rows, lane, slabX, slabWidth },
  };
}

/** Whether the tree edge into node `i` crosses from its parent's slab into another. */
export function crossesSlab(layout: WrappedLayout, i: number): boolean {
  const wrap = layout.wrap;
  const p = layout.parent[i]!;
  if (!wrap || p < 0) return false;
  return Math.floor(layout.depth[p]! / wrap.rows) !== Math.floor(layout.depth[i]! / wrap.rows);
}

/**
 * Where a wrap edge runs (flow px): down from the parent into the gap below its slab's last row
 * (`belowY`), right to just past that slab (`laneX`), up to the gap above the next slab's first
 * row (`aboveY`), then across to the child.
 */
export function wrapEdgeRoute(layout: WrappedLayout, parentIndex: number): { belowY: number; laneX: number; aboveY: number } | null {
  const wrap = layout.wrap;
  if (!wrap) return null;
  const k = Math.floor(layout.depth[parentIndex]! / wrap.rows);
  const gap = ROW_GAP - NODE_HEIGHT;
  return {
    belowY: wrap.rows * ROW_GAP - gap / 2,
    laneX: wrap.slabX[k]! + wrap.slabWidth[k]! + Math.min(40, wrap.lane / 4),
    aboveY: -gap / 2,
  };
}

/** Before the pane is measured (and on the server): a desktop tree pane. */
export const DEFAULT_PANE: Pane = { width: 940, height: 460 };
/** Pane sizes are rounded to steps of this factor, so resizing re-lays out rarely. */
const STEP = Math.log(1.15);

/** The size bucket of a pane of `width` × `height` px (DEFAULT_PANE when not measured). */
export function paneShape(width: number, height: number): Pane {
  if (!(width > 0 && height > 0)) return DEFAULT_PANE;
  const round = (v: number) => Math.round(Math.exp(Math.round(Math.log(v) / STEP) * STEP));
  return { width: round(width), height: round(height) };
}
