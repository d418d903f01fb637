/**
 * The part of a large canvas React Flow is given: the nodes and edges near the viewport, not the
 * whole layout (cost what is on screen). React Flow indexes every node and edge it is
 * handed (its lookups, connection maps) whenever the arrays change — a selection, a zoom that
 * expands turns, a new model — and at 100k entries (~10k turn nodes) that alone made tasks of
 * 100–250 ms. Its `onlyRenderVisibleElements` limits the DOM, not that indexing.
 *
 * Contract:
 * - `windowKeyOf(transform, width, height)` names a cell of the viewport's centre on a grid
 *   one viewport wide and high, at a zoom rounded to half powers of two; it changes only when
 *   the view moves about a viewport or zooms by ~40 %, so panning re-windows now and then,
 *   not every frame. An unmeasured pane (0 × 0) has the key "".
 * - `windowRectOf(key)` is that cell grown by one cell on every side: it contains the whole
 *   viewport for every transform with the same key (the viewport is at most 1.19 cells wide
 *   at the bucket's smallest zoom, centred inside the middle cell).
 * - `windowOf(nodes, edges, rect)`: the nodes whose box meets the rectangle, the edges whose
 *   ends' bounding box meets it (so an edge crossing the view is drawn even when both ends lie
 *   outside), and both ends of each such edge; nodes keep their layout order.
 * Pure: no React.
 */
import type { Edge, Node } from "@xyflow/react";

/** Layouts of more nodes than this are windowed; smaller ones go to React Flow whole. */
export const WINDOW_ABOVE = 2000;

export const isWindowed = (nodeCount: number) => nodeCount > WINDOW_ABOVE;

export interface Rect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Zoom buckets per doubling. */
const BUCKETS_PER_OCTAVE = 2;

export function windowKeyOf(transform: readonly [number, number, number], width: number, height: number): string {
  const [tx, ty, zoom] = transform;
  if (width <= 0 || height <= 0 || zoom <= 0) return "";
  const bucket = Math.round(Math.log2(zoom) * BUCKETS_PER_OCTAVE);
  const z = 2 ** (bucket / BUCKETS_PER_OCTAVE);
  const cellW = width / z;
  const cellH = height / z;
  // The viewport's centre in flow coordinates.
  const cx = (width / 2 - tx) / zoom;
  const cy = (height / 2 - ty) / zoom;
  return `${bucket}:${Math.floor(cx / cellW)}:${Math.floor(cy / cellH)}:${width}:${height}`;
}

export function windowRectOf(key: string): Rect | null {
  if (key === "") return null;
  const [bucket, ix, iy, width, height] = key.split(":").map(Number) as [number, number, number, number, number];
  const z = 2 ** (bucket / BUCKETS_PER_OCTAVE);
  const cellW = width / z;
  const cellH = height / z;
  return { x0: (ix - 1) * cellW, y0: (iy - 1) * cellH, x1: (ix + 2) * cellW, y1: (iy + 2) * cellH };
}

type Boxed = Pick<Node, "id" | "position" | "width" | "height">;

const meets = (r: Rect, x0: number, y0: number, x1: number, y1: number) => x0 <= r.x1 && x1 >= r.x0 && y0 <= r.y1 && y1 >= r.y0;

export function windowOf<N extends Boxed, E extends Pick<Edge, "source" | "target">>(
  nodes: readonly N[],
  index: ReadonlyMap<string, number>,
  edges: readonly E[],
  rect: Rect,
): { nodes: N[]; edges: E[] } {
  const inView = new Uint8Array(nodes.length);
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i]!;
    const { x, y } = n.position;
    if (meets(rect, x, y, x + (n.width ?? 0), y + (n.height ?? 0))) inView[i] = 1;
  }
  const shown = inView.slice();
  const keptEdges: E[] = [];
  for (const e of edges) {
    const s = index.get(e.source);
    const t = index.get(e.target);
    if (s === undefined || t === undefined) continue;
    if (!inView[s] || !inView[t]) {
      const a = nodes[s]!;
      const b = nodes[t]!;
      const x0 = Math.min(a.position.x, b.position.x);
      const y0 = Math.min(a.position.y, b.position.y);
      const x1 = Math.max(a.position.x + (a.width ?? 0), b.position.x + (b.width ?? 0));
      const y1 = Math.max(a.position.y + (a.height ?? 0), b.position.y + (b.height ?? 0));
      if (!meets(rect, x0, y0, x1, y1)) continue;
    }
    shown[s] = 1;
    shown[t] = 1;
    keptEdges.push(e);
  }
  const keptNodes: N[] = [];
  for (let i = 0; i < nodes.length; i++) if (shown[i]) keptNodes.push(nodes[i]!);
  return { nodes: keptNodes, edges: keptEdges };
}
