import { describe, expect, it } from "vitest";
import {
  assistantEntry,
  buildTree,
  isoAt,
  messageEntry,
  modelChangeEntry,
  toolCall,
  toolResultMsg,
  userEntry,
} from "@/test/session-factories";
import { formatFooter } from "@/lib/session/tree/tree-filter";
import { applyVisibility, flattenTree } from "@/lib/session/tree/tree-flatten";
import {
  initialSelection,
  nearestVisibleAncestors,
  resolveSelection,
  visibleGraph,
  visibleIndexOf,
} from "@/lib/session/tree/tree-graph";

// m (model_change) → u1 → a1 (tool call only) → r1 (toolResult) → a2 "done" → u2 → a3 (tool call only)
//                     └→ u3 (a side branch from u1)
const entries = [
  modelChangeEntry("m", null, "anthropic/x", undefined, { timestamp: isoAt(1) }),
  userEntry("u1", "m", "first", { timestamp: isoAt(2) }),
  assistantEntry("a1", "u1", "", { toolCalls: [toolCall("c1", "bash", { command: "ls" })] }, { timestamp: isoAt(3) }),
  messageEntry("r1", "a1", toolResultMsg("c1", "out", { toolName: "bash" }), { timestamp: isoAt(4) }),
  assistantEntry("a2", "r1", "done", {}, { timestamp: isoAt(5) }),
  userEntry("u2", "a2", "second", { timestamp: isoAt(6) }),
  assistantEntry("a3", "u2", "", { toolCalls: [toolCall("c2", "ls")] }, { timestamp: isoAt(7) }),
  userEntry("u3", "u1", "other way", { timestamp: isoAt(8) }),
];
const roots = buildTree(entries).getTree();

const edgePairs = (g: { edges: { source: string; target: string }[] }) => g.edges.map((e) => `${e.source}>${e.target}`);

describe("graph edges (session-engine.md §16.3)", () => {
  it("each visible node's edge comes from its nearest visible ancestor", () => {
    const g = visibleGraph(roots, { leafId: "a2" });
    expect(g.nodes.map((n) => n.id)).toEqual(["u1", "r1", "a2", "u2", "u3"]);
    // a1 (tool-only) and m (model_change) are hidden: r1 hangs off u1, u1 has no edge.
    expect(edgePairs(g)).toEqual(["u1>r1", "r1>a2", "a2>u2", "u1>u3"]);
  });

  it("follows the filter: no-tools skips tool results too", () => {
    const g = visibleGraph(roots, { leafId: "a2", filter: "no-tools" });
    expect(edgePairs(g)).toEqual(["u1>a2", "a2>u2", "u1>u3"]);
    const users = visibleGraph(roots, { leafId: "a2", filter: "user-only" });
    expect(edgePairs(users)).toEqual(["u1>u2", "u1>u3"]);
  });

  it("marks edges on the active path", () => {
    const g = visibleGraph(roots, { leafId: "a2" });
    expect(g.edges.filter((e) => e.isActive).map((e) => e.target)).toEqual(["r1", "a2"]);
    expect(g.nodes.find((n) => n.id === "a2")?.row.isLeaf).toBe(true);
  });

  it("nearestVisibleAncestors gives -1 when every ancestor is hidden", () => {
    const rows = flattenTree(roots, { leafId: "a2" });
    const nva = nearestVisibleAncestors(rows);
    const at = (id: string) => rows.findIndex((r) => r.entry.id === id);
    expect(nva[at("u1")]).toBe(-1);
    expect(nva[at("m")]).toBe(-1);
    expect(nva[at("r1")]).toBe(at("u1"));
  });
});

describe("selection (session-engine.md §16.3)", () => {
  const rows = flattenTree(roots, { leafId: "a3" });

  it("a visible selection stays", () => {
    expect(resolveSelection(rows, "a2")).toBe("a2");
  });

  it("a hidden selection moves to its nearest visible ancestor", () => {
    const users = applyVisibility(rows, "user-only");
    expect(resolveSelection(users, "a2")).toBe("u1");
    expect(resolveSelection(users, "a3")).toBe("u2");
  });

  it("with no visible ancestor, to the last visible row; with none visible, null", () => {
    const search = applyVisibility(rows, "default", "second");
    expect(resolveSelection(search, "m")).toBe("u2");
    expect(resolveSelection(search, "unknown")).toBe("u2");
    expect(resolveSelection(applyVisibility(rows, "default", "zzz"), "u1")).toBeNull();
  });

  it("initial selection: the leaf, or its nearest visible ancestor", () => {
    expect(initialSelection(rows, "a3")).toBe("a3"); // leaf exempt from the hidden-assistant rule
    expect(initialSelection(applyVisibility(rows, "user-only"), "a3")).toBe("u2");
    expect(initialSelection(rows, null)).toBe(rows.filter((r) => r.visible).at(-1)?.entry.id);
  });

  it("visibleIndexOf feeds the footer", () => {
    // Display order with leaf a3: m, u1, a1, r1, a2, u2, a3, u3 → visible u1 r1 a2 u2 a3 u3.
    expect(visibleIndexOf(rows, "a3")).toBe(4);
    expect(formatFooter(visibleIndexOf(rows, "a3"), rows.filter((r) => r.visible).length, "default")).toBe("(5/6)");
    expect(visibleIndexOf(rows, "a1")).toBe(-1);
  });
});
