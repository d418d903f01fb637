import { describe, expect, it } from "vitest";
import {
  assistantEntry,
  buildTree,
  isoAt,
  labelEntry,
  messageEntry,
  modelChangeEntry,
  toolCall,
  toolResultMsg,
  userEntry,
} from "@/test/session-factories";
import { applyVisibility, flattenTree, type TreeNodeLike, visibleRows } from "@/lib/session/tree/tree-flatten";
import type { SessionEntry } from "@/lib/session/types";

/** A user entry at BASE_TIME + `t` seconds. */
function u(id: string, parentId: string | null, t: number): SessionEntry {
  return userEntry(id, parentId, `msg ${id}`, { timestamp: isoAt(t) });
}

function node(entry: SessionEntry, children: TreeNodeLike[] = [], label?: string): TreeNodeLike {
  return label === undefined ? { entry, children } : { entry, children, label };
}

const ids = (rows: { entry: SessionEntry }[]) => rows.map((r) => r.entry.id);
const depths = (rows: { entry: SessionEntry; depth: number }[]) =>
  Object.fromEntries(rows.map((r) => [r.entry.id, r.depth]));

describe("ordering (session-engine.md §16.1)", () => {
  // A → B → { C, X, D }; D → G. Timestamps: C 3, X 4, D 5.
  const entries = [u("A", null, 1), u("B", "A", 2), u("C", "B", 3), u("X", "B", 4), u("D", "B", 5), u("G", "D", 6)];

  it("without the leaf among them, siblings follow timestamp order", () => {
    const rows = flattenTree(buildTree(entries).getTree(), { leafId: "A" });
    expect(ids(rows)).toEqual(["A", "B", "C", "X", "D", "G"]);
  });

  it("the sibling whose subtree holds the current leaf comes first, the rest by timestamp", () => {
    const rows = flattenTree(buildTree(entries).getTree(), { leafId: "G" });
    expect(ids(rows)).toEqual(["A", "B", "D", "G", "C", "X"]);
    const rowsX = flattenTree(buildTree(entries).getTree(), { leafId: "X" });
    expect(ids(rowsX)).toEqual(["A", "B", "X", "C", "D", "G"]);
  });

  it("multiple roots are ordered the same way, as children of a virtual root", () => {
    // Roots given out of timestamp order: R2 (t=10) before R1 (t=5) and R3 (t=20).
    const roots = [node(u("R2", null, 10)), node(u("R1", null, 5)), node(u("R3", null, 20), [node(u("L", "R3", 21))])];
    expect(ids(flattenTree(roots, { leafId: null }))).toEqual(["R1", "R2", "R3", "L"]);
    expect(ids(flattenTree(roots, { leafId: "L" }))).toEqual(["R3", "L", "R1", "R2"]);
  });

  it("marks the active path and the leaf", () => {
    const rows = flattenTree(buildTree(entries).getTree(), { leafId: "D" });
    expect(rows.filter((r) => r.isActive).map((r) => r.entry.id)).toEqual(["A", "B", "D"]);
    expect(rows.filter((r) => r.isLeaf).map((r) => r.entry.id)).toEqual(["D"]);
    expect(flattenTree(buildTree(entries).getTree(), { leafId: null }).some((r) => r.isActive || r.isLeaf)).toBe(false);
  });

  it("parentIndex points at the parent's row, -1 for roots", () => {
    const rows = flattenTree(buildTree(entries).getTree(), { leafId: "G" });
    for (const row of rows) {
      const parent = rows[row.parentIndex];
      expect(parent?.entry.id ?? null).toBe(row.entry.parentId);
    }
  });
});

describe("indentation (session-engine.md §16.1)", () => {
  /*
   * Our reading of "the first generation after a branch is also indented one step when the
   * indent is already above 0": a child of a branching node (the branch head) passes one more
   * step to its own single child when the head's depth is > 0; from there single-child chains
   * stay flat. So a branch at depth 0 shows its heads at 1 and their continuations at 2.
   */
  it("chains stay flat; branch heads +1; their first single child +1 more", () => {
    const entries = [
      u("A", null, 1),
      u("B", "A", 2),
      u("C", "B", 3),
      u("E", "C", 4),
      u("F", "E", 5),
      u("D", "B", 6),
      u("G", "D", 7),
      u("H", "F", 8),
      u("I", "F", 9),
      u("J", "H", 10),
      u("K", "J", 11),
    ];
    const rows = flattenTree(buildTree(entries).getTree(), { leafId: "K" });
    expect(ids(rows)).toEqual(["A", "B", "C", "E", "F", "H", "J", "K", "I", "D", "G"]);
    expect(depths(rows)).toEqual({ A: 0, B: 0, C: 1, E: 2, F: 2, H: 3, J: 4, K: 4, I: 3, D: 1, G: 2 });
  });

  it("a plain chain is entirely at depth 0", () => {
    const rows = flattenTree(buildTree([u("a", null, 1), u("b", "a", 2), u("c", "b", 3)]).getTree(), { leafId: "c" });
    expect(rows.map((r) => r.depth)).toEqual([0, 0, 0]);
  });

  it("several roots start at depth 1 (the virtual root branches)", () => {
    const roots = [node(u("R1", null, 1), [node(u("C1", "R1", 2), [node(u("D1", "C1", 3))])]), node(u("R2", null, 4))];
    expect(depths(flattenTree(roots, { leafId: "D1" }))).toEqual({ R1: 1, C1: 2, D1: 2, R2: 1 });
  });
});

describe("rows (session-engine.md §16.1–16.3)", () => {
  const call = toolCall("c1", "read", { path: "src/a.ts" });
  const entries = [
    modelChangeEntry("m", null, "anthropic/x", undefined, { timestamp: isoAt(1) }),
    userEntry("u1", "m", "first", { timestamp: isoAt(2) }),
    assistantEntry("a1", "u1", "", { toolCalls: [call] }, { timestamp: isoAt(3) }),
    messageEntry("r1", "a1", toolResultMsg("c1", "body", { toolName: "read" }), { timestamp: isoAt(4) }),
    assistantEntry("a2", "r1", "done", {}, { timestamp: isoAt(5) }),
    labelEntry("l1", "a2", "u1", "start", { timestamp: isoAt(6) }),
    assistantEntry("a3", "l1", "", { toolCalls: [toolCall("c2", "ls")] }, { timestamp: isoAt(7) }),
  ];

  it("carry text, label and visibility under the default filter", () => {
    const rows = flattenTree(buildTree(entries).getTree(), { leafId: "a2" });
    const byId = new Map(rows.map((r) => [r.entry.id, r]));
    expect(byId.get("u1")).toMatchObject({ text: "user: first", label: "start", visible: true });
    expect(byId.get("r1")).toMatchObject({ text: "[read: src/a.ts]", visible: true });
    expect(byId.get("a1")?.visible).toBe(false); // tool-call-only assistant
    expect(byId.get("m")?.visible).toBe(false); // model_change hidden by default
    expect(byId.get("l1")?.visible).toBe(false);
    expect(byId.get("a3")?.visible).toBe(false);
    expect(byId.get("a2")?.label).toBeUndefined();
  });

  it("the current leaf is shown even when it is a hidden-style assistant", () => {
    const rows = flattenTree(buildTree(entries).getTree(), { leafId: "a3" });
    expect(rows.find((r) => r.entry.id === "a3")).toMatchObject({ visible: true, isLeaf: true });
  });

  it("filter and search select rows; applyVisibility recomputes without re-layout", () => {
    const tree = buildTree(entries).getTree();
    expect(ids(visibleRows(flattenTree(tree, { leafId: "a2", filter: "user-only" })))).toEqual(["u1"]);
    expect(ids(visibleRows(flattenTree(tree, { leafId: "a2", filter: "labeled-only" })))).toEqual(["u1"]);
    expect(ids(visibleRows(flattenTree(tree, { leafId: "a2", filter: "no-tools" })))).toEqual(["u1", "a2"]);
    expect(ids(visibleRows(flattenTree(tree, { leafId: "a2", search: "DONE" })))).toEqual(["a2"]);
    const base = flattenTree(tree, { leafId: "a2" });
    const all = applyVisibility(base, "all");
    // "all" still hides tool-call-only assistants that are not the leaf.
    expect(ids(visibleRows(all))).toEqual(["m", "u1", "r1", "a2", "l1"]);
    expect(all.map((r) => r.depth)).toEqual(base.map((r) => r.depth));
    expect(applyVisibility(base, "default")[0]).toBe(base[0]); // unchanged rows are reused
  });
});

describe("scale (session-engine.md §16: linear, iterative)", () => {
  it("flattens a 100,000-deep chain without overflowing the stack", () => {
    const n = 100_000;
    const entries: SessionEntry[] = [];
    for (let i = 0; i < n; i++) {
      entries.push(userEntry(`e${i}`, i === 0 ? null : `e${i - 1}`, "x", { timestamp: isoAt(i) }));
    }
    const roots = buildTree(entries).getTree();
    const started = performance.now();
    const rows = flattenTree(roots, { leafId: `e${n - 1}`, search: "user" });
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(rows).toHaveLength(n);
    expect(rows.every((r) => r.depth === 0 && r.isActive && r.visible)).toBe(true);
    expect(rows[n - 1]?.isLeaf).toBe(true);
  });
});
