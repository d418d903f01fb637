import { describe, expect, it } from "vitest";
import { costHeat, sessionBranches } from "./branches";

// r → a → b1 → b1c, and a → b2 (a is the branch point).
const nodes = [
  { id: "r", parentId: null },
  { id: "a", parentId: "r" },
  { id: "b1", parentId: "a" },
  { id: "b1c", parentId: "b1" },
  { id: "b2", parentId: "a" },
];
const rows = [
  { entryId: "a", costMicros: 100, tokens: 10 },
  { entryId: "b1c", costMicros: 300, tokens: 30 },
  { entryId: "b2", costMicros: 150, tokens: 15 },
];

describe("branches", () => {
  it("marks the branches off the path to the leaf as abandoned, the path's first, root first", () => {
    const branches = sessionBranches(nodes, rows, "b2");
    expect(branches.map((b) => [b.startId, b.onCurrentPath, b.costMicros])).toEqual([
      ["r", true, 100],
      ["b2", true, 150],
      ["b1", false, 300],
    ]);
  });

  it("colours every entry by its branch's share of the costliest branch", () => {
    const heat = costHeat(nodes, sessionBranches(nodes, rows, "b2"));
    expect(Object.fromEntries(heat)).toEqual({ r: 100 / 300, a: 100 / 300, b1: 1, b1c: 1, b2: 0.5 });
  });
});
