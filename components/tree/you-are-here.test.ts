import { describe, expect, it } from "vitest";
import { selectLandmarks } from "@/components/tree/model/landmarks";
import { toFlow } from "@/components/tree/layout/to-flow";
import { collapseTurns, groupTurns } from "@/components/tree/model/turns";
import type { TreeNode } from "@/components/tree/types";
import { PIN_CUSTOM_TYPE } from "@/lib/session/pins";
import { customEntry, isoAt, modelChangeEntry, thinkingEntry } from "@/test/session-factories";
import { reply, toolRunSession, user } from "@/test/tree-sessions";

/**
 * "You are here" marks the nearest visible entry of the current leaf's path whatever the filter
 * (ui.md "visual language"): real sessions often end on an entry the default filter hides.
 */
const leafNodes = (nodes: TreeNode[]) => nodes.filter((n) => n.data.isLeaf).map((n) => n.id);
const late = (s: number) => ({ timestamp: isoAt(10_000 + s) });

describe("you are here", () => {
  it("marks the leaf itself when it is visible", () => {
    const flow = toFlow([user("u1", null), reply("a1", "u1")], { leafId: "a1" });
    expect(leafNodes(flow.nodes)).toEqual(["a1"]);
    expect(flow.hereId).toBe("a1");
    expect(flow.nodes[1]!.data.hiddenLeaf).toBeUndefined();
  });

  it("a model or thinking-level change as the leaf: its nearest visible ancestor carries the mark and names it", () => {
    const entries = [user("u1", null), reply("a1", "u1"), thinkingEntry("th", "a1", "high", late(1)), modelChangeEntry("m", "th", "anthropic/claude-opus-4-5", undefined, late(2))];
    const flow = toFlow(entries, { leafId: "m" });
    expect(leafNodes(flow.nodes)).toEqual(["a1"]);
    expect(flow.hereId).toBe("a1");
    expect(flow.nodes.find((n) => n.id === "a1")!.data.hiddenLeaf).toBe("[model: anthropic/claude-opus-4-5]");
    const marks = selectLandmarks(flow.nodes, flow.edges).filter((l) => l.parts.some((p) => p.kind === "leaf"));
    expect(marks.map((l) => l.nodeId)).toEqual(["a1"]);
    // With the "all" filter the leaf is visible again and carries the mark itself.
    expect(leafNodes(toFlow(entries, { leafId: "m", filter: "all" }).nodes)).toEqual(["m"]);
  });

  it("after a pin (a custom entry appended as the leaf)", () => {
    const entries = [user("u1", null), reply("a1", "u1"), customEntry("p", "a1", PIN_CUSTOM_TYPE, { targetId: "u1", pinned: true }, late(1))];
    const flow = toFlow(entries, { leafId: "p" });
    expect(leafNodes(flow.nodes)).toEqual(["a1"]);
  });

  it("the user-only filter: the prompt of the leaf's turn", () => {
    const flow = toFlow([user("u1", null), reply("a1", "u1"), user("u2", "a1"), reply("a2", "u2")], { leafId: "a2", filter: "user-only" });
    expect(leafNodes(flow.nodes)).toEqual(["u2"]);
  });

  it("the marked entry never folds into a run of tool steps", () => {
    // u1 → t1 → t2 → t3 (tool steps) → hidden setting as the leaf: t3 shows the mark, unfolded.
    const entries = toolRunSession().slice(0, 7);
    entries.push(thinkingEntry("th", "t3", "low", late(1)));
    const flow = toFlow(entries, { leafId: "th" });
    expect(leafNodes(flow.nodes)).toEqual(["t3"]);
    expect(flow.nodes.some((n) => n.type === "fold")).toBe(false);
  });

  it("a collapsed turn holding the marked entry carries it", () => {
    const entries = [user("u1", null), reply("a1", "u1"), user("u2", "a1"), reply("a2", "u2"), thinkingEntry("th", "a2", "low", late(1))];
    const flow = toFlow(entries, { leafId: "th" });
    const collapsed = collapseTurns(flow, groupTurns(flow), () => true);
    expect(leafNodes(collapsed.nodes)).toEqual(["turn:u2"]);
  });

  it("no mark when no entry of the path is visible (labeled-only, nothing labelled)", () => {
    const flow = toFlow([user("u1", null), reply("a1", "u1")], { leafId: "a1", filter: "labeled-only" });
    expect(flow.hereId).toBeNull();
    expect(leafNodes(flow.nodes)).toEqual([]);
  });
});
