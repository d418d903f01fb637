/**
 * Overlap checks for layout tests (layout.test.ts, large-session.test.ts). Not used by
 * production code. Pure: no React, no DOM.
 */
import type { TreeNode } from "@/components/tree/types";

interface Box {
  id: string;
  x: number;
  y: number;
  w: number;
  h: number;
}

/**
 * Pairs of nodes whose rectangles intersect (touching edges do not count). Sweep over x:
 * sort by left edge and compare each box only with boxes whose x-range is still open, so
 * column layouts are checked in about O(n log n + n · column height).
 */
export function overlappingPairs(nodes: readonly TreeNode[]): [string, string][] {
  const boxes: Box[] = nodes.map((n) => ({
    id: n.id,
    x: n.position.x,
    y: n.position.y,
    w: n.width ?? 0,
    h: n.height ?? 0,
  }));
  boxes.sort((a, b) => a.x - b.x || a.y - b.y);
  const out: [string, string][] = [];
  let active: Box[] = [];
  for (const b of boxes) {
    active = active.filter((a) => a.x + a.w > b.x);
    for (const a of active) {
      if (a.y < b.y + b.h && b.y < a.y + a.h) out.push([a.id, b.id]);
    }
    active.push(b);
  }
  return out;
}
