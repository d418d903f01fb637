/**
 * The session start drawn above several roots (ui.md "Branch summary"): a branch summary written
 * when the user continued from the first message (session-engine.md §11.4: a new root), or an
 * imported file's orphans, all hang under it, so the summary sits under the branch point it
 * belongs to instead of as a second, unconnected tree. Pure: no React, no DOM.
 *
 * Decoration only: not in the layout's tree (keyboard moves, folds and turns never see it), not
 * focusable; one `start` edge to each root (active to the current path's root).
 */
import { HANDLES } from "@/components/tree/model/entry-info";
import { NODE_HEIGHT, NODE_WIDTH, ROW_GAP, type TreeLayout } from "@/components/tree/layout/layout";
import type { StartNodeType, TreeEdge } from "@/components/tree/types";

export const START_ID = "start:";
export const START_WIDTH = 200;
export const START_HEIGHT = 30;

/** The start node and its edges, or null with fewer than two roots. */
export function startDecor(layout: TreeLayout): { node: StartNodeType; edges: TreeEdge[] } | null {
  if (layout.roots.length < 2) return null;
  const first = layout.nodes[layout.roots[0]!]!;
  const node: StartNodeType = {
    id: START_ID,
    type: "start",
    position: { x: first.position.x + (NODE_WIDTH - START_WIDTH) / 2, y: -(ROW_GAP - NODE_HEIGHT) - START_HEIGHT },
    width: START_WIDTH,
    height: START_HEIGHT,
    measured: { width: START_WIDTH, height: START_HEIGHT },
    handles: HANDLES.start,
    data: { roots: layout.roots.length },
    selectable: false,
    focusable: false,
    draggable: false,
    connectable: false,
    ariaRole: "img",
    ariaLabel: `session start: branch point of ${layout.roots.length} roots`,
  };
  const edges: TreeEdge[] = layout.roots.map((r) => {
    const root = layout.nodes[r]!;
    return {
      id: `${START_ID}->${root.id}`,
      source: START_ID,
      target: root.id,
      sourceHandle: "out",
      targetHandle: "in",
      data: { kind: "start", isActive: root.data.isActive },
    };
  });
  return { node, edges };
}
