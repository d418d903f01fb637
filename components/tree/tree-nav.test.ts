import { describe, expect, it } from "vitest";
import { layoutTree } from "@/components/tree/layout/layout";
import { reply, toolRunSession, user } from "@/test/tree-sessions";
import { toFlow } from "@/components/tree/layout/to-flow";
import { arrowMove, footerIndex, moveInRows, moveInTree, reconcileSelection } from "@/components/tree/tree-nav";
import { visibleRows } from "@/lib/session/tree/tree-flatten";

// u1 → a1 → {u2 → a2 (leaf), u3, u4}
const entries = [
  user("u1", null),
  reply("a1", "u1"),
  user("u2", "a1"),
  reply("a2", "u2"),
  user("u3", "a1"),
  user("u4", "a1"),
];

describe("moveInTree (ui.md keyboard: parent / child / sibling)", () => {
  const layout = layoutTree(toFlow(entries, { leafId: "a2" }));

  it("maps the arrow keys", () => {
    expect(["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "x"].map(arrowMove)).toEqual([
      "parent",
      "child",
      "prev-sibling",
      "next-sibling",
      undefined,
    ]);
  });

  it("moves to the parent and the first child, staying put at the ends", () => {
    expect(moveInTree(layout, "a1", "parent")).toBe("u1");
    expect(moveInTree(layout, "u1", "parent")).toBe("u1");
    expect(moveInTree(layout, "a1", "child")).toBe("u2");
    expect(moveInTree(layout, "a2", "child")).toBe("a2");
  });

  it("moves between siblings in display order", () => {
    expect(moveInTree(layout, "u2", "next-sibling")).toBe("u3");
    expect(moveInTree(layout, "u3", "next-sibling")).toBe("u4");
    expect(moveInTree(layout, "u4", "next-sibling")).toBe("u4");
    expect(moveInTree(layout, "u3", "prev-sibling")).toBe("u2");
    expect(moveInTree(layout, "u1", "next-sibling")).toBe("u1");
  });

  it("starts at the first root without a selection", () => {
    expect(moveInTree(layout, null, "child")).toBe("u1");
    expect(moveInTree(layout, "nope", "parent")).toBe("u1");
  });
});

describe("moveInRows (§16.6: up/down wrap, pages clamp)", () => {
  const rows = visibleRows(toFlow(entries, { leafId: "a2" }).rows);
  it("wraps single steps and clamps pages", () => {
    expect(moveInRows(rows, "u1", -1, true)).toBe("u4");
    expect(moveInRows(rows, "u4", 1, true)).toBe("u1");
    expect(moveInRows(rows, "u1", 10, false)).toBe("u4");
    expect(moveInRows(rows, "u4", -10, false)).toBe("u1");
    expect(moveInRows(rows, null, 1, true)).toBe("u1");
    expect(moveInRows([], "u1", 1, true)).toBeNull();
  });
});

describe("reconcileSelection (§16.3 Selection)", () => {
  const view = (flow: ReturnType<typeof toFlow>) => {
    const ids = new Set(flow.nodes.map((n) => n.id));
    return { rows: flow.rows, nodeOf: flow.nodeOf, hasNode: (id: string) => ids.has(id) };
  };

  it("keeps a visible selection and no selection", () => {
    const g = view(toFlow(entries, { leafId: "a2" }));
    expect(reconcileSelection("u3", g)).toEqual({ kind: "keep" });
    expect(reconcileSelection(null, g)).toEqual({ kind: "keep" });
  });

  it("moves a hidden selection to its nearest visible ancestor", () => {
    const g = view(toFlow(entries, { leafId: "a2", filter: "user-only" }));
    expect(reconcileSelection("a2", g)).toEqual({ kind: "select", id: "u2" });
  });

  it("falls back to the last visible row, and keeps it when nothing is visible", () => {
    const g = view(toFlow(entries, { leafId: "a2", search: "u3" }));
    expect(reconcileSelection("u2", g)).toEqual({ kind: "select", id: "u3" });
    expect(reconcileSelection("u2", view(toFlow(entries, { leafId: "a2", search: "zzz" })))).toEqual({ kind: "keep" });
  });

  it("unfolds the run of a folded entry, and maps a vanished fold to its first entry", () => {
    const folded = view(toFlow(toolRunSession(), { leafId: "a2" }));
    expect(reconcileSelection("t2", folded)).toEqual({ kind: "unfold", entryId: "t2" });
    expect(reconcileSelection("fold:t1", folded)).toEqual({ kind: "keep" });
    const open = view(toFlow(toolRunSession(), { leafId: "a2", expanded: new Set(["t1"]) }));
    expect(reconcileSelection("fold:t1", open)).toEqual({ kind: "select", id: "t1" });
  });

  it("finds the footer position of entries and folds", () => {
    const flow = toFlow(toolRunSession(), { leafId: "a2" });
    const rows = visibleRows(flow.rows);
    expect(footerIndex(rows, "u1")).toBe(0);
    expect(footerIndex(rows, "fold:t1")).toBe(1);
    expect(footerIndex(rows, null)).toBe(-1);
  });
});
