/** The overview uses the pane's whole width: a tall tree wraps into slabs (wrap-layout.ts). */
import { describe, expect, it } from "vitest";
import { layoutTree, NODE_WIDTH } from "@/components/tree/layout/layout";
import { overlappingPairs } from "@/components/tree/layout/layout-check";
import { toFlow } from "@/components/tree/layout/to-flow";
import { collapseTurns, groupTurns } from "@/components/tree/model/turns";
import { overviewModel } from "@/test/tree-models";
import { chooseSlabs, LANE_PX, MAX_LANE, paneShape, wrapLayout } from "@/components/tree/layout/wrap-layout";
import { generateSession } from "@/test/generators/session";

function overview(seed: number, entries: number, branches = 0) {
  const session = generateSession({ seed, entries, branches, compactions: true });
  const leafId = session.entries.at(-1)!.id;
  const flow = toFlow(session.entries, { leafId });
  const c = collapseTurns(flow, groupTurns(flow), () => true);
  return { session, leafId, layout: layoutTree(c), graph: c };
}

const PANE = { width: 940, height: 460 };
const fitZoomOf = (b: { width: number; height: number }, pane = PANE) => Math.min(pane.width / (b.width * 1.2), pane.height / (b.height * 1.2));

describe("wrapLayout", () => {
  it("a long linear session fills a wide pane with several slabs, at a far larger zoom than one column", () => {
    const { layout } = overview(7, 1000);
    const wrapped = wrapLayout(layout, PANE);
    expect(wrapped.wrap).toBeDefined();
    const slabs = wrapped.wrap!.slabX.length;
    expect(slabs).toBeGreaterThan(1);
    expect(fitZoomOf(wrapped.bounds)).toBeGreaterThan(2 * fitZoomOf(layout.bounds));
    // The bounds' shape is close to the pane's: neither a column nor a strip.
    const shape = wrapped.bounds.width / wrapped.bounds.height;
    expect(shape).toBeGreaterThan(1);
    expect(shape).toBeLessThan(4);
    // At Fit view each lane leaves a caption's room on screen (LANE_PX, unless MAX_LANE caps it).
    const z = fitZoomOf(wrapped.bounds);
    expect(wrapped.wrap!.lane * z).toBeGreaterThanOrEqual(Math.min(LANE_PX, MAX_LANE * z) - 1);
    expect(wrapped.wrap!.lane * z).toBeGreaterThan(150);
  });

  it("no two nodes overlap; the tree (parents, depths, order) is unchanged; the active path reads in order", () => {
    const { layout } = overview(11, 2000, 3);
    const wrapped = wrapLayout(layout, PANE);
    expect(overlappingPairs(wrapped.nodes)).toEqual([]);
    expect(wrapped.parent).toBe(layout.parent);
    expect(wrapped.depth).toBe(layout.depth);
    const rows = wrapped.wrap!.rows;
    // Within a slab a child sits below its parent; across slabs the next slab is to the right.
    for (let i = 0; i < wrapped.nodes.length; i++) {
      const p = wrapped.parent[i]!;
      if (p < 0) continue;
      const [a, b] = [wrapped.nodes[p]!.position, wrapped.nodes[i]!.position];
      if (Math.floor(wrapped.depth[p]! / rows) === Math.floor(wrapped.depth[i]! / rows)) expect(b.y).toBeGreaterThan(a.y);
      else expect(b.x).toBeGreaterThan(a.x + NODE_WIDTH);
    }
  });

  it("a narrow (phone) pane wraps into fewer slabs than a wide one; a short tree is not wrapped", () => {
    const { layout } = overview(7, 1000);
    const wide = chooseSlabs(layout, PANE).slabs;
    const phone = chooseSlabs(layout, paneShape(390, 560)).slabs;
    expect(phone).toBeLessThan(wide);
    const short = overview(3, 40).layout;
    expect(wrapLayout(short, PANE)).toBe(short);
  });

  it("the model draws the edges into the next slab as wrap edges, and splits the compaction bands at slab ends", () => {
    const { session, leafId } = overview(5, 1500, 1);
    const model = overviewModel(session.entries, { leafId, pane: PANE });
    const { layout } = model;
    expect(layout.wrap).toBeDefined();
    const wraps = model.edges.filter((e) => e.type === "wrap");
    expect(wraps.length).toBeGreaterThanOrEqual(layout.wrap!.slabX.length - 1);
    for (const e of wraps) {
      const [s, t] = [layout.nodes[layout.index.get(e.source)!]!, layout.nodes[layout.index.get(e.target)!]!];
      expect(t.position.x).toBeGreaterThan(s.position.x);
      expect(e.data?.route?.belowY).toBeGreaterThan(s.position.y);
    }
    // Every band lies inside one slab.
    const { slabX, slabWidth } = layout.wrap!;
    for (const b of layout.bands) {
      const k = slabX.findLastIndex((x) => x <= b.x + 20);
      expect(b.x + b.width).toBeLessThanOrEqual(slabX[k]! + slabWidth[k]! + 20);
    }
  });
});
