/**
 * Where the canvas's own overlays sit on screen, so captions avoid them and the minimap never
 * hides the current leaf (ui.md "A map of a real session"). Pure: no React, no DOM.
 *
 * - The minimap (MINIMAP_W × MINIMAP_H) is for finding what is out of view: none while the whole
 *   tree is in view (Fit view). Otherwise it takes the first corner — bottom right, top right,
 *   top left, bottom left above the zoom buttons — that does not cover the "you are here" node's
 *   screen box (with a margin); none when every corner would, or the pane is too small for it.
 * - The zoom buttons sit bottom left (zoomButtonsRect).
 */
import type { ScreenBox } from "@/components/tree/layout/caption-placement";
import type { TreeModel } from "@/components/tree/hooks/use-tree-model";

export const MINIMAP_W = 180;
export const MINIMAP_H = 150;
const MARGIN = 10;
/** Room kept around the leaf's node. */
const LEAF_MARGIN = 12;

const meets = (a: ScreenBox, b: ScreenBox) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

export function zoomButtonsRect(pane: { width: number; height: number }): ScreenBox {
  return { x: 8, y: pane.height - 8 - 64, width: 34, height: 64 };
}

/**
 * The minimap's box in the pane, or null (see the module contract). `tree`: the whole layout's
 * box on screen.
 */
export function minimapRect(pane: { width: number; height: number }, leaf: ScreenBox | null, tree: ScreenBox): ScreenBox | null {
  if (pane.width < MINIMAP_W + 4 * MARGIN + 40 || pane.height < MINIMAP_H + 2 * MARGIN + 40) return null;
  const tol = 2;
  if (tree.x >= -tol && tree.y >= -tol && tree.x + tree.width <= pane.width + tol && tree.y + tree.height <= pane.height + tol) return null;
  const right = pane.width - MARGIN - MINIMAP_W;
  const bottom = pane.height - MARGIN - MINIMAP_H;
  const buttons = zoomButtonsRect(pane);
  const corners: [number, number][] = [
    [right, bottom],
    [right, MARGIN],
    [MARGIN, MARGIN],
    [MARGIN, buttons.y - MARGIN - MINIMAP_H],
  ];
  const around = leaf && { x: leaf.x - LEAF_MARGIN, y: leaf.y - LEAF_MARGIN, width: leaf.width + 2 * LEAF_MARGIN, height: leaf.height + 2 * LEAF_MARGIN };
  for (const [x, y] of corners) {
    if (y < MARGIN) continue;
    const box = { x, y, width: MINIMAP_W, height: MINIMAP_H };
    if (!around || !meets(box, around)) return box;
  }
  return null;
}

/** The layout's bounds on screen. */
export function treeScreenBox(model: TreeModel, transform: readonly [number, number, number]): ScreenBox {
  const [tx, ty, zoom] = transform;
  const b = model.layout.bounds;
  return { x: b.x * zoom + tx, y: b.y * zoom + ty, width: b.width * zoom, height: b.height * zoom };
}

/** The screen box of the node showing "you are here", or null when it is not laid out. */
export function leafScreenBox(model: TreeModel, transform: readonly [number, number, number]): ScreenBox | null {
  const here = model.flow.hereId;
  const id = here === null ? undefined : model.flow.nodeOf.get(here);
  const i = id === undefined ? undefined : model.layout.index.get(id);
  const n = i === undefined ? undefined : model.layout.nodes[i];
  if (!n) return null;
  const [tx, ty, zoom] = transform;
  return { x: n.position.x * zoom + tx, y: n.position.y * zoom + ty, width: (n.width ?? 0) * zoom, height: (n.height ?? 0) * zoom };
}
