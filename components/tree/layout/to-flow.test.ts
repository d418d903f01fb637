import { describe, expect, it } from "vitest";
import {
  branchSummary,
  compactedSession,
  compaction,
  reply,
  toolRunSession,
  toolStep,
  user,
} from "@/test/tree-sessions";
import { toFlow } from "@/components/tree/layout/to-flow";
import type { TreeEdge, TreeNode } from "@/components/tree/types";
import { labelEntry, modelChangeEntry } from "@/test/session-factories";

const ids = (nodes: TreeNode[]) => nodes.map((n) => n.id);
const pairs = (edges: TreeEdge[], kind: "tree" | "firstKept" = "tree") =>
  edges.filter((e) => e.data?.kind === kind).map((e) => `${e.source}>${e.target}`);
const node = (nodes: TreeNode[], id: string) => {
  const n = nodes.find((x) => x.id === id);
  if (!n) throw new Error(`no node ${id}`);
  return n;
};

describe("toFlow: nodes and row text (session-engine.md §16.2)", () => {
  it("makes one entry node per visible entry, with row text, role mark and tokens", () => {
    const entries = [user("u1", null, "hello there"), reply("a1", "u1", "hi!")];
    const { nodes, edges } = toFlow(entries, { leafId: "a1" });
    expect(ids(nodes)).toEqual(["u1", "a1"]);
    const u1 = node(nodes, "u1");
    expect(u1.type).toBe("entry");
    if (u1.type !== "entry") return;
    expect(u1.data).toMatchObject({ text: "user: hello there", role: "user", isUserMessage: true, tokens: 3 });
    expect(node(nodes, "a1").data).toMatchObject({ text: "assistant: hi!", isLeaf: true, isActive: true });
    expect(pairs(edges)).toEqual(["u1>a1"]);
    expect(edges[0]!.data?.isActive).toBe(true);
  });

  it("gives every node a fixed size and static handles so off-screen edges still draw", () => {
    const { nodes } = toFlow([user("u1", null)], { leafId: "u1" });
    const u1 = nodes[0]!;
    expect(u1.width).toBeGreaterThan(0);
    expect(u1.height).toBeGreaterThan(0);
    expect(u1.handles?.map((h) => h.id)).toEqual(["in", "out", "kept-in"]);
  });

  it("types compactions and branch summaries, and attaches a summary under its parent", () => {
    const entries = [user("u1", null), reply("a1", "u1"), compaction("C", "a1", "a1"), branchSummary("B", "C")];
    const { nodes, edges } = toFlow(entries, { leafId: "B" });
    const c = node(nodes, "C");
    expect(c.type).toBe("compaction");
    expect(c.data.text).toBe("[compaction: 12k tokens]");
    if (c.type === "compaction") expect(c.data.shortSummary).toBe("Summary of C\nmore detail");
    const b = node(nodes, "B");
    expect(b.type).toBe("branchSummary");
    if (b.type === "branchSummary") expect(b.data.preview.split("\n")).toHaveLength(4);
    expect(pairs(edges)).toContain("C>B");
  });

  it("shows labels (data.label) and leaves the row text unprefixed", () => {
    const entries = [user("u1", null), reply("a1", "u1"), labelEntry("l1", "a1", "u1", "start", {})];
    const { nodes } = toFlow(entries, { leafId: "a1", labels: new Map([["u1", "start"]]) });
    expect(node(nodes, "u1").data).toMatchObject({ label: "start", text: "user: u1" });
    // Derived from the label entries when no map is given.
    expect(node(toFlow(entries, { leafId: "a1" }).nodes, "u1").data.label).toBe("start");
  });
});

describe("toFlow: visibility, filters and edges (session-engine.md §16.3)", () => {
  it("hides tool-call-only assistants and joins edges to the nearest visible ancestor", () => {
    const entries = [user("u1", null), ...toolStep("t1", "u1"), reply("a1", "t1")];
    const { nodes, edges } = toFlow(entries, { leafId: "a1" });
    expect(ids(nodes)).toEqual(["u1", "t1", "a1"]);
    expect(node(nodes, "t1").data.text).toBe("[read: src/t1.ts]");
    expect(pairs(edges)).toEqual(["u1>t1", "t1>a1"]);
  });

  it("follows the filter (user-only) and the default filter hides settings", () => {
    const entries = [modelChangeEntry("m", null, "x/y"), user("u1", "m"), reply("a1", "u1"), user("u2", "a1")];
    expect(ids(toFlow(entries, { leafId: "u2" }).nodes)).toEqual(["u1", "a1", "u2"]);
    const users = toFlow(entries, { leafId: "u2", filter: "user-only" });
    expect(ids(users.nodes)).toEqual(["u1", "u2"]);
    expect(pairs(users.edges)).toEqual(["u1>u2"]);
    expect(ids(toFlow(entries, { leafId: "u2", filter: "all" }).nodes)).toEqual(["m", "u1", "a1", "u2"]);
  });

  it("marks search matches", () => {
    const entries = [user("u1", null, "fix the parser"), reply("a1", "u1", "parser fixed"), user("u2", "a1", "thanks")];
    const { nodes } = toFlow(entries, { leafId: "u2", search: "PARSER" });
    expect(ids(nodes)).toEqual(["u1", "a1"]);
    expect(nodes.every((n) => n.data.matchesSearch)).toBe(true);
    expect(toFlow(entries, { leafId: "u2" }).nodes.some((n) => n.data.matchesSearch)).toBe(false);
  });

  it("puts the current leaf's subtree first and flags only active-path edges (§16.1)", () => {
    const entries = [user("u1", null), reply("a1", "u1"), user("old", "a1"), user("new", "a1"), reply("a2", "new")];
    const { nodes, edges } = toFlow(entries, { leafId: "old" });
    expect(ids(nodes)).toEqual(["u1", "a1", "old", "new", "a2"]);
    expect(edges.filter((e) => e.data?.isActive).map((e) => e.target)).toEqual(["a1", "old"]);
    expect(node(nodes, "a2").data.isActive).toBe(false);
    expect(ids(toFlow(entries, { leafId: "a2" }).nodes)).toEqual(["u1", "a1", "new", "a2", "old"]);
  });
});

describe("toFlow: folding tool steps", () => {
  it("folds a single-child run of 3+ tool steps into one fold node", () => {
    const { nodes, edges, nodeOf } = toFlow(toolRunSession(), { leafId: "a2" });
    expect(ids(nodes)).toEqual(["u1", "fold:t1", "a1", "u2", "a2"]);
    const fold = node(nodes, "fold:t1");
    expect(fold.type).toBe("fold");
    if (fold.type === "fold") {
      expect(fold.data).toMatchObject({ text: "3 tool steps", count: 3, entryIds: ["t1", "t2", "t3"], isActive: true });
    }
    expect(pairs(edges)).toEqual(["u1>fold:t1", "fold:t1>a1", "a1>u2", "u2>a2"]);
    expect(nodeOf.get("t2")).toBe("fold:t1");
    expect(nodeOf.get("a1")).toBe("a1");
  });

  it("keeps the run unfolded when expanded, selected, searched, or holding the leaf", () => {
    const entries = toolRunSession();
    const unfolded = ["u1", "t1", "t2", "t3", "a1", "u2", "a2"];
    expect(ids(toFlow(entries, { leafId: "a2", expanded: new Set(["t1"]) }).nodes)).toEqual(unfolded);
    expect(ids(toFlow(entries, { leafId: "a2", expanded: new Set(["t3"]) }).nodes)).toEqual(unfolded);
    expect(ids(toFlow(entries, { leafId: "a2", selectedId: "t2" }).nodes)).toEqual(unfolded);
    expect(ids(toFlow(entries, { leafId: "t2" }).nodes)).toContain("t2");
    expect(ids(toFlow(entries, { leafId: "a2", search: "contents" }).nodes)).toEqual(["t1", "t2", "t3"]);
  });

  it("does not fold runs shorter than 3 or broken by a branch", () => {
    const short = [user("u1", null), ...toolStep("t1", "u1"), ...toolStep("t2", "t1"), reply("a1", "t2")];
    expect(ids(toFlow(short, { leafId: "a1" }).nodes)).toEqual(["u1", "t1", "t2", "a1"]);
    // t1 → {t2 → t3, t4}: t1 may branch only as the last member, so no run reaches 3.
    const forked = [
      user("u1", null),
      ...toolStep("t1", "u1"),
      ...toolStep("t2", "t1"),
      ...toolStep("t3", "t2"),
      ...toolStep("t4", "t1"),
    ];
    const { nodes } = toFlow(forked, { leafId: "t4" });
    expect(ids(nodes)).toEqual(["u1", "t1", "t4", "t2", "t3"]);
  });

  it("keeps labelled tool steps visible", () => {
    const entries = toolRunSession();
    expect(ids(toFlow(entries, { leafId: "a2", labels: new Map([["t2", "here"]]) }).nodes)).toContain("t2");
  });
});

describe("toFlow: compactions", () => {
  it("marks first-kept entries, the entries each compaction replaced, and draws a dashed edge", () => {
    const { nodes, edges } = toFlow(compactedSession(), { leafId: "a5" });
    const by = (id: string) => node(nodes, id).data.summarisedBy;
    expect(["u1", "a1", "u2", "a2"].map(by)).toEqual([["C1"], ["C1"], ["C1"], ["C1"]]);
    // Kept by C1, outside C2's range (which starts after C1): not summarised.
    expect(["u3", "a3", "C1", "a4", "u5", "u2b", "a2b"].map(by)).toEqual([[], [], [], [], [], [], []]);
    expect(by("u4")).toEqual(["C2"]);
    expect(node(nodes, "u3").data.isFirstKept).toBe(true);
    expect(node(nodes, "a4").data.isFirstKept).toBe(true);
    expect(node(nodes, "u2").data.isFirstKept).toBe(false);
    expect(pairs(edges, "firstKept")).toEqual(["C1>u3", "C2>a4"]);
    const kept = edges.find((e) => e.id === "kept:C1");
    expect(kept).toMatchObject({ sourceHandle: "kept-out", targetHandle: "kept-in", data: { isActive: true } });
  });

  it("summarises everything before the compaction when firstKeptEntryId is not on its path", () => {
    const entries = [user("u1", null), reply("a1", "u1"), compaction("C", "a1", "missing"), user("u2", "C")];
    const { nodes, edges } = toFlow(entries, { leafId: "u2" });
    expect(node(nodes, "u1").data.summarisedBy).toEqual(["C"]);
    expect(node(nodes, "a1").data.summarisedBy).toEqual(["C"]);
    expect(pairs(edges, "firstKept")).toEqual([]);
  });

  it("moves the first-kept flag to the first visible descendant of a hidden kept entry", () => {
    // The kept entry t1a is a hidden tool-call-only assistant; its toolResult t1 is shown.
    const entries = [user("u1", null), ...toolStep("t1", "u1"), reply("a1", "t1"), compaction("C", "a1", "t1a")];
    const { nodes, edges } = toFlow(entries, { leafId: "C" });
    expect(node(nodes, "t1").data.isFirstKept).toBe(true);
    expect(pairs(edges, "firstKept")).toEqual(["C>t1"]);
  });

  it("draws no first-kept edge when the filter hides the compaction", () => {
    const { edges, nodes } = toFlow(compactedSession(), { leafId: "a5", filter: "user-only" });
    expect(pairs(edges, "firstKept")).toEqual([]);
    expect(node(nodes, "u3").data.isFirstKept).toBe(true);
  });

  it("points the dashed edge at the fold when the kept entry is folded", () => {
    const entries = [
      user("u1", null),
      ...toolStep("t1", "u1"),
      ...toolStep("t2", "t1"),
      ...toolStep("t3", "t2"),
      reply("a1", "t3"),
      compaction("C", "a1", "t2"),
      user("u2", "C"),
    ];
    const { nodes, edges } = toFlow(entries, { leafId: "u2" });
    expect(pairs(edges, "firstKept")).toEqual(["C>fold:t1"]);
    expect(node(nodes, "fold:t1").data).toMatchObject({ isFirstKept: true, summarisedBy: ["C"] });
  });
});
