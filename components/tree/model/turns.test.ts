import { describe, expect, it } from "vitest";
import { layoutTree } from "@/components/tree/layout/layout";
import { overlappingPairs } from "@/components/tree/layout/layout-check";
import { compactedSession, compaction, reply, toolRunSession, toolStep, user } from "@/test/tree-sessions";
import { type FlowGraph, toFlow } from "@/components/tree/layout/to-flow";
import { collapseTurns, filesTouched, groupTurns } from "@/components/tree/model/turns";
import type { TurnNodeType } from "@/components/tree/types";
import { generateSession } from "@/test/generators/session";
import { assistantEntry, messageEntry } from "@/test/session-factories";
import { toolCall, toolResultMsg } from "@/test/session-messages";
import type { SessionEntry } from "@/lib/session/types";

function overview(entries: SessionEntry[], leafId: string) {
  const flow = toFlow(entries, { leafId });
  const grouping = groupTurns(flow);
  return { flow, grouping, collapsed: collapseTurns(flow, grouping, () => true) };
}

/** Entry ids of each turn, by the turn's first entry. */
function turnEntries(flow: FlowGraph, grouping: ReturnType<typeof groupTurns>): string[][] {
  return grouping.turns.map((t) => t.members.flatMap((m) => {
    const n = flow.nodes[m]!;
    return n.type === "fold" ? n.data.entryIds : [n.data.entryId];
  }));
}

const turnNodes = (c: { nodes: { type?: string }[] }) => c.nodes.filter((n): n is TurnNodeType => n.type === "turn");

describe("groupTurns", () => {
  it("a turn is a user message and what follows it up to the next user message", () => {
    const entries = [user("u1", null, "Plan the parser\nwith details"), reply("a1", "u1"), user("u2", "a1", "Now test it"), reply("a2", "u2")];
    const { flow, grouping, collapsed } = overview(entries, "a2");
    expect(turnEntries(flow, grouping)).toEqual([["u1", "a1"], ["u2", "a2"]]);
    const turns = turnNodes(collapsed);
    expect(turns.map((t) => t.id)).toEqual(["turn:u1", "turn:u2"]);
    expect(turns[0]!.data).toMatchObject({ prompt: "Plan the parser", startsWithUser: true, steps: 1, isActive: true, isLeaf: false });
    expect(turns[1]!.data.isLeaf).toBe(true);
    expect(collapsed.edges.map((e) => `${e.source}->${e.target}`)).toEqual(["turn:u1->turn:u2"]);
    expect(collapsed.nodeOf.get("a1")).toBe("turn:u1");
    expect(collapsed.nodeOf.get("a2")).toBe("turn:u2");
  });

  it("a branch that starts mid-turn continues the turn as its own node; the branch point ends the turn", () => {
    // u1 → a1 → { r1 → u2, r2 } : two replies under a1 (a regenerated answer), no user message between.
    const entries = [user("u1", null), reply("a1", "u1"), reply("r1", "a1", "first try"), user("u2", "r1"), reply("r2", "a1", "second try")];
    const { flow, grouping, collapsed } = overview(entries, "r2");
    expect(turnEntries(flow, grouping).sort()).toEqual([["r1"], ["r2"], ["u1", "a1"], ["u2"]].sort());
    const byId = new Map(turnNodes(collapsed).map((t) => [t.id, t.data]));
    expect(byId.get("turn:u1")!.isBranchPoint).toBe(true);
    expect(byId.get("turn:r2")).toMatchObject({ startsWithUser: false, prompt: "assistant: second try", isLeaf: true, isBranchPoint: false });
    expect(byId.get("turn:r1")!.isActive).toBe(false);
    const edges = collapsed.edges.map((e) => `${e.source}->${e.target}`).sort();
    expect(edges).toEqual(["turn:r1->turn:u2", "turn:u1->turn:r1", "turn:u1->turn:r2"]);
  });

  it("a compaction inside a turn stays its own node and splits the turn; first kept marks the turn holding it", () => {
    const entries = [user("u1", null), reply("a1", "u1"), compaction("C", "a1", "u1", 48_200), reply("a2", "C", "after"), user("u2", "a2"), reply("a3", "u2")];
    const { flow, grouping, collapsed } = overview(entries, "a3");
    expect(turnEntries(flow, grouping)).toEqual([["u1", "a1"], ["a2"], ["u2", "a3"]]);
    expect(collapsed.nodes.map((n) => n.id)).toEqual(["turn:u1", "C", "turn:a2", "turn:u2"]);
    const [first] = turnNodes(collapsed);
    expect(first!.data.isFirstKept).toBe(true);
    expect(first!.data.summarisedBy).toEqual([]);
    const kept = collapsed.edges.find((e) => e.data?.kind === "firstKept")!;
    expect([kept.source, kept.target]).toEqual(["C", "turn:u1"]);
    expect(collapsed.nodes.find((n) => n.id === "C")!.data.text).toBe("[compaction: 48k tokens]");
  });

  it("folded runs belong to their turn and count their entries", () => {
    const { flow, grouping, collapsed } = overview(toolRunSession(), "a2");
    expect(flow.nodes.some((n) => n.type === "fold")).toBe(true);
    expect(turnEntries(flow, grouping)).toEqual([["u1", "t1", "t2", "t3", "a1"], ["u2", "a2"]]);
    expect(turnNodes(collapsed)[0]!.data.steps).toBe(4);
  });

  it("files touched come from edit and write calls; errors from failed assistant messages", () => {
    const entries: SessionEntry[] = [
      user("u1", null),
      assistantEntry("e1a", "u1", "", { toolCalls: [toolCall("c1", "edit", { path: "src/a.ts" })] }),
      messageEntry("e1", "e1a", toolResultMsg("c1", "ok", { toolName: "edit" })),
      ...toolStep("r1", "e1", "src/b.ts"),
      assistantEntry("x1", "r1", "oops", { stopReason: "error", errorMessage: "overloaded" }),
    ];
    const { collapsed } = overview(entries, "x1");
    const [t] = turnNodes(collapsed);
    expect(t!.data.files).toEqual(["src/a.ts"]);
    expect(t!.data.errors).toBe(1);
    expect(filesTouched(["[write: a b.md] [edit: c.ts]", "[edit: c.ts]", "[read: d.ts]"])).toEqual(["a b.md", "c.ts"]);
  });

  it("an expanded turn shows its entries; edges attach to the turn nodes around it", () => {
    const flow = toFlow(compactedSession(), { leafId: "a5" });
    const g = groupTurns(flow);
    const c = collapseTurns(flow, g, (t) => t.id !== "turn:u4");
    expect(c.nodes.map((n) => n.id)).toContain("u4");
    expect(c.nodes.map((n) => n.id)).toContain("a4");
    const edges = c.edges.filter((e) => e.data?.kind === "tree").map((e) => `${e.source}->${e.target}`);
    expect(edges).toContain("C1->u4");
    expect(edges).toContain("u4->a4");
    expect(edges).toContain("a4->C2");
  });
});

describe("overview layout", () => {
  it("a generated 2,000-entry session with branches and compactions: no overlaps, every entry shown by one node", () => {
    const { entries } = generateSession({ seed: 11, entries: 2000, branches: 6, labels: 5, compactions: true });
    const leaf = entries.at(-1)!.id;
    const { flow, collapsed } = overview(entries, leaf);
    const layout = layoutTree(collapsed);
    expect(overlappingPairs(layout.nodes)).toEqual([]);
    expect(collapsed.nodes.length).toBeLessThan(flow.nodes.length / 3);
    const ids = new Set(collapsed.nodes.map((n) => n.id));
    for (const [entry, node] of flow.nodeOf) expect(ids.has(collapsed.nodeOf.get(entry) ?? node), entry).toBe(true);
    // The active path is one straight column.
    const active = layout.nodes.filter((n) => n.data.isActive);
    expect(new Set(active.map((n) => n.position.x)).size).toBe(1);
  });
});
