/**
 * The window a large canvas hands React Flow (flow-window.ts): it always contains the whole
 * viewport, changes only now and then while panning, and keeps every node and edge that can
 * show in the view.
 */
import { describe, expect, it } from "vitest";
import { createRng } from "@/lib/random";
import { windowKeyOf, windowOf, windowRectOf } from "./flow-window";

const W = 1200;
const H = 800;

/** The viewport in flow coordinates. */
function viewOf(tx: number, ty: number, zoom: number) {
  return { x0: -tx / zoom, y0: -ty / zoom, x1: (W - tx) / zoom, y1: (H - ty) / zoom };
}

describe("windowKeyOf / windowRectOf", () => {
  it("contains the whole viewport for any transform (seeded)", () => {
    const rand = createRng(7);
    for (let i = 0; i < 5_000; i++) {
      const zoom = 2 ** (rand() * 8 - 6); // 1/64 … 4
      const tx = (rand() - 0.5) * 1e6 * zoom;
      const ty = (rand() - 0.5) * 1e6 * zoom;
      const rect = windowRectOf(windowKeyOf([tx, ty, zoom], W, H))!;
      const view = viewOf(tx, ty, zoom);
      expect(rect.x0).toBeLessThanOrEqual(view.x0);
      expect(rect.y0).toBeLessThanOrEqual(view.y0);
      expect(rect.x1).toBeGreaterThanOrEqual(view.x1);
      expect(rect.y1).toBeGreaterThanOrEqual(view.y1);
      // …and is not much bigger: at most 3 × 3 viewports at the bucket's zoom.
      expect((rect.x1 - rect.x0) / (view.x1 - view.x0)).toBeLessThan(3 * 1.2);
    }
  });

  it("changes a few times over a long pan, not every frame; an unmeasured pane has no window", () => {
    const keys = new Set<string>();
    // 5 viewports to the right, 1 px a frame.
    for (let dx = 0; dx <= 5 * W; dx++) keys.add(windowKeyOf([-dx, 0, 1], W, H));
    expect(keys.size).toBeLessThanOrEqual(7);
    expect(windowKeyOf([0, 0, 1], 0, 0)).toBe("");
    expect(windowRectOf("")).toBeNull();
    // A small zoom step keeps the key; a big one changes it.
    expect(windowKeyOf([0, 0, 1.05], W, H)).toBe(windowKeyOf([0, 0, 1], W, H));
    expect(windowKeyOf([0, 0, 2], W, H)).not.toBe(windowKeyOf([0, 0, 1], W, H));
  });
});

describe("windowOf", () => {
  const node = (id: string, x: number, y: number) => ({ id, position: { x, y }, width: 100, height: 50 });
  const nodes = [node("a", 0, 0), node("b", 5000, 0), node("c", 0, 5000), node("d", 2000, 2000), node("e", -5000, 400)];
  const index = new Map(nodes.map((n, i) => [n.id, i]));
  const edges = [
    { id: "a-b", source: "a", target: "b" },
    { id: "c-d", source: "c", target: "d" },
    { id: "b-c", source: "b", target: "c" },
    { id: "e-b", source: "e", target: "b" },
  ];

  it("keeps the nodes in the rectangle, the edges that meet it with both their ends, in layout order", () => {
    const part = windowOf(nodes, index, edges, { x0: -50, y0: -50, x1: 500, y1: 500 });
    // a is inside; a-b starts inside; b-c's box covers the rectangle; e-b crosses it; c-d stays away.
    expect(part.edges.map((e) => e.id)).toEqual(["a-b", "b-c", "e-b"]);
    expect(part.nodes.map((n) => n.id)).toEqual(["a", "b", "c", "e"]);
  });

  it("keeps nothing far from every node and edge", () => {
    expect(windowOf(nodes, index, edges, { x0: 9000, y0: 9000, x1: 9500, y1: 9500 })).toEqual({ nodes: [], edges: [] });
  });
});
