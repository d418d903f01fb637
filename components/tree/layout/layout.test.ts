import { describe, expect, it } from "vitest";
import {
  BAND_PAD_X,
  COL_GAP,
  layoutTree,
  NODE_HEIGHT,
  NODE_WIDTH,
  nodeSize,
  ROW_GAP,
} from "@/components/tree/layout/layout";
import { overlappingPairs } from "@/components/tree/layout/layout-check";
import { compactedSession, compaction, reply, toolRunSession, user } from "@/test/tree-sessions";
import { toFlow } from "@/components/tree/layout/to-flow";
import type { TreeEdge, TreeNode } from "@/components/tree/types";

/** Synthetic entry nodes + tree edges from a parent array (parents precede children). */
function synthetic(parent: readonly number[], opts: { active?: Set<number>; fold?: Set<number> } = {}) {
  const nodes: TreeNode[] = parent.map((_, i) => {
    const type = opts.fold?.has(i) ? "fold" : "entry";
    const data = {
      entryId: `n${i}`,
      text: `n${i}`,
      tokens: 0,
      time: Number.NaN,
      isActive: opts.active?.has(i) ?? false,
      isLeaf: false,
      isFirstKept: false,
      summarisedBy: [],
      matchesSearch: false,
    };
    const base = { id: `n${i}`, position: { x: 0, y: 0 }, ...nodeSize(type) };
    return type === "fold"
      ? { ...base, type, data: { ...data, entryIds: [`n${i}`], count: 1 } }
      : { ...base, type, data: { ...data, entryType: "message", role: "user", isUserMessage: true } };
  });
  const edges: TreeEdge[] = [];
  parent.forEach((p, i) => {
    if (p >= 0) edges.push({ id: `e${i}`, source: `n${p}`, target: `n${i}`, data: { kind: "tree", isActive: false } });
  });
  return { nodes, edges };
}

/** Deterministic pseudo-random tree: mostly chains with occasional branches. */
function randomParents(n: number, seed: number): number[] {
  let s = seed;
  const rand = () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
  const parent = [-1];
  for (let i = 1; i < n; i++) parent.push(rand() < 0.9 ? i - 1 : Math.floor(rand() * i));
  return parent;
}

const pos = (l: ReturnType<typeof layoutTree>, id: string) => l.nodes[l.index.get(id)!]!.position;

describe("layoutTree", () => {
  it("stacks a chain in one column, one row per depth, top to bottom", () => {
    const l = layoutTree(synthetic([-1, 0, 1, 2]));
    expect(l.nodes.map((n) => n.position)).toEqual([0, 1, 2, 3].map((d) => ({ x: 0, y: d * ROW_GAP })));
    expect(l.bounds).toEqual({ x: 0, y: 0, width: NODE_WIDTH, height: 3 * ROW_GAP + NODE_HEIGHT });
  });

  it("gives leaves consecutive columns and puts each parent over its first child", () => {
    // 0 → {1 → {2, 3}, 4}
    const l = layoutTree(synthetic([-1, 0, 1, 1, 0]));
    expect([...l.column]).toEqual([0, 0, 0, 1, 2]);
    expect([...l.depth]).toEqual([0, 1, 2, 2, 1]);
    expect(pos(l, "n4")).toEqual({ x: 2 * COL_GAP, y: ROW_GAP });
    expect(l.roots).toEqual([0]);
    expect([...l.childList.slice(l.childStart[1]!, l.childStart[2]!)]).toEqual([2, 3]);
  });

  it("centres narrower fold pills in their slot", () => {
    const l = layoutTree(synthetic([-1, 0, 1], { fold: new Set([1]) }));
    const fold = nodeSize("fold");
    expect(pos(l, "n1")).toEqual({ x: (NODE_WIDTH - fold.width) / 2, y: ROW_GAP + (NODE_HEIGHT - fold.height) / 2 });
  });

  it("never overlaps nodes, siblings included (random trees)", () => {
    for (const seed of [1, 2, 3, 42, 1234]) {
      const l = layoutTree(synthetic(randomParents(3000, seed), { fold: new Set([5, 50, 500]) }));
      expect(overlappingPairs(l.nodes)).toEqual([]);
      const cells = new Set(l.nodes.map((_, i) => `${l.column[i]},${l.depth[i]}`));
      expect(cells.size).toBe(l.nodes.length);
    }
  });

  it("keeps the active path in one straight vertical line", () => {
    const entries = [
      user("u1", null),
      reply("a1", "u1"),
      user("u2", "a1"),
      reply("a2", "u2"),
      user("u2b", "a1", "branch"),
      reply("a2b", "u2b"),
      user("u3b", "a2b"),
      user("u3c", "a2b"),
      reply("a3c", "u3c"),
    ];
    for (const leafId of ["a2", "a3c", "u3b", "a1"]) {
      const flow = toFlow(entries, { leafId });
      const l = layoutTree(flow);
      const active = l.nodes.filter((n) => n.data.isActive);
      expect(active.length).toBeGreaterThan(1);
      expect(new Set(active.map((n) => n.position.x + (n.width ?? 0) / 2)).size).toBe(1);
      expect(active[0]!.position.x).toBe(0);
    }
  });

  it("is deterministic", () => {
    const flow = toFlow(compactedSession(), { leafId: "a5" });
    expect(JSON.stringify(layoutTree(flow))).toBe(JSON.stringify(layoutTree(flow)));
  });

  it("handles a 100,000-deep chain without recursion", () => {
    const n = 100_000;
    const l = layoutTree(synthetic(Array.from({ length: n }, (_, i) => i - 1)));
    expect(l.nodes[n - 1]!.position).toEqual({ x: 0, y: (n - 1) * ROW_GAP });
  });

  it("ignores first-kept edges and survives edges that would form a cycle", () => {
    const { nodes, edges } = synthetic([-1, 0, 1]);
    edges.push({ id: "k", source: "n2", target: "n0", data: { kind: "firstKept", isActive: false } });
    expect([...layoutTree({ nodes, edges }).depth]).toEqual([0, 1, 2]);
    const cyc: TreeEdge[] = [
      { id: "a", source: "n0", target: "n1", data: { kind: "tree", isActive: false } },
      { id: "b", source: "n1", target: "n0", data: { kind: "tree", isActive: false } },
    ];
    const l = layoutTree({ nodes: nodes.slice(0, 2), edges: cyc });
    expect(overlappingPairs(l.nodes)).toEqual([]);
  });
});

describe("layoutTree: summarised bands", () => {
  it("draws one band around a compaction's contiguous summarised nodes", () => {
    const l = layoutTree(toFlow(compactedSession(), { leafId: "a5" }));
    const c1 = l.bands.filter((b) => b.compactionId === "C1");
    expect(c1).toHaveLength(1);
    const band = c1[0]!;
    // u1, a1, u2, a2 sit at depths 0..3 of column 0.
    expect(band.x).toBe(-BAND_PAD_X);
    expect(band.y).toBeLessThan(0);
    expect(band.y + band.height).toBeGreaterThan(3 * ROW_GAP + NODE_HEIGHT);
    expect(band.y + band.height).toBeLessThan(4 * ROW_GAP);
    expect(l.bands.filter((b) => b.compactionId === "C2")).toHaveLength(1);
  });

  it("splits a band where the summarised path changes column", () => {
    // The compaction sits on the older branch (u2b), so its path bends from column 0 to 1.
    const entries = [
      user("u1", null),
      reply("a1", "u1"),
      user("u2", "a1"),
      reply("a2", "u2"),
      user("u2b", "a1", "side"),
      reply("a2b", "u2b"),
      {
        ...compactedSession().find((e) => e.id === "C1")!,
        id: "Cb",
        parentId: "a2b",
        firstKeptEntryId: "a2b",
      },
    ];
    const l = layoutTree(toFlow(entries, { leafId: "a2" }));
    const bands = l.bands.filter((b) => b.compactionId === "Cb");
    expect(bands.map((b) => b.x)).toEqual([-BAND_PAD_X, COL_GAP - BAND_PAD_X]);
    expect(new Set(bands.map((b) => b.id)).size).toBe(2);
  });

  it("covers a fold whose members were summarised", () => {
    // u1 → fold(t1..t3) → a1 → u2 → a2 → C (keeps from u2): the band spans u1, the fold, a1.
    const entries = [...toolRunSession(), compaction("C", "a2", "u2"), user("u3", "C")];
    const l = layoutTree(toFlow(entries, { leafId: "u3" }));
    expect(pos(l, "fold:t1")).toBeDefined();
    expect(l.nodes[l.index.get("fold:t1")!]!.data.summarisedBy).toEqual(["C"]);
    expect(l.bands).toHaveLength(1);
    expect(l.bands[0]!.height).toBeGreaterThan(2 * ROW_GAP + NODE_HEIGHT);
    expect(l.bands[0]!.height).toBeLessThan(3 * ROW_GAP + NODE_HEIGHT);
  });
});
