"use client";
/**
 * A tree edge into the next slab of a wrapped overview (wrap-layout.ts `wrapEdgeRoute`): down
 * from the parent into the gap under its slab, right to just past the slab, up to the gap above
 * the next slab's first row, across, and down into the child. Straight segments with rounded
 * corners; styled by the edge's class like any tree edge (active path: accent).
 */
import { BaseEdge, type EdgeProps } from "@xyflow/react";
import { memo } from "react";
import type { TreeEdge } from "@/components/tree/types";

const R = 10;

/** An orthogonal polyline through `points` with corners rounded by up to R. */
export function roundedPath(points: readonly [number, number][]): string {
  let d = `M ${points[0]![0]} ${points[0]![1]}`;
  for (let i = 1; i < points.length - 1; i++) {
    const [px, py] = points[i - 1]!;
    const [x, y] = points[i]!;
    const [nx, ny] = points[i + 1]!;
    const r = Math.min(R, Math.hypot(x - px, y - py) / 2, Math.hypot(nx - x, ny - y) / 2);
    const ax = x - Math.sign(x - px) * r;
    const ay = y - Math.sign(y - py) * r;
    const bx = x + Math.sign(nx - x) * r;
    const by = y + Math.sign(ny - y) * r;
    d += ` L ${ax} ${ay} Q ${x} ${y} ${bx} ${by}`;
  }
  const [lx, ly] = points[points.length - 1]!;
  return `${d} L ${lx} ${ly}`;
}

function WrapEdgeView({ id, sourceX, sourceY, targetX, targetY, data, style }: EdgeProps<TreeEdge>) {
  const route = data?.route;
  const path = route
    ? roundedPath([
        [sourceX, sourceY],
        [sourceX, route.belowY],
        [route.laneX, route.belowY],
        [route.laneX, route.aboveY],
        [targetX, route.aboveY],
        [targetX, targetY],
      ])
    : `M ${sourceX} ${sourceY} L ${targetX} ${targetY}`;
  return <BaseEdge id={id} path={path} style={style} />;
}

export const WrapEdge = memo(WrapEdgeView);
