/** Undo / redo of a compaction as leaf moves, and the review of sibling compactions (docs/engine.md "Arbor extensions around compaction"). */
import { describe, expect, it } from "vitest";
import { reviewCompaction } from "@/lib/compaction/compaction-review";
import { moveLeaf, planCompactionUndo } from "@/lib/compaction/compaction-undo";
import { assistant, ent, linked, msg, user } from "@/test/compaction-helpers";
import { buildTree } from "@/test/session-factories";

const base = linked(
  msg("u1", user("Rename `loadConfig`.")),
  msg("a1", assistant("Done.")),
  msg("u2", user("Now the tests.")),
  msg("a2", assistant("Tests pass.")),
  ent("compaction", "c1", { summary: "Renamed loadConfig.", firstKeptEntryId: "u2", tokensBefore: 900 }),
  msg("u3", user("next")),
  msg("a3", assistant("ok")),
);

const roles = (tree: ReturnType<typeof buildTree>) => tree.buildContext().messages.map((m) => m.role);

describe("planCompactionUndo + moveLeaf", () => {
  it("moves the leaf to the compaction's parent, so the context is the pre-compaction one; redo returns to where the leaf was", () => {
    const tree = buildTree(base);
    expect(roles(tree)[0]).toBe("compactionSummary");
    const plan = planCompactionUndo(tree.getEntry("c1"), tree.getBranch());
    expect(plan).toEqual({ ok: true, compactionId: "c1", undoLeafId: "a2", redoLeafId: "a3" });
    if (!plan.ok) return;
    const before = tree.getEntryCount();
    moveLeaf(tree, plan.undoLeafId);
    expect(tree.getLeafId()).toBe("a2");
    expect(roles(tree)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(tree.getEntryCount()).toBe(before); // nothing deleted, nothing appended
    moveLeaf(tree, plan.redoLeafId);
    expect(tree.getLeafId()).toBe("a3");
    expect(roles(tree)[0]).toBe("compactionSummary");
  });

  it("redoes to the compaction itself when it was the leaf, and undoes a root compaction to null", () => {
    const tree = buildTree(base.slice(0, 5));
    expect(planCompactionUndo(tree.getEntry("c1"), tree.getBranch())).toMatchObject({ undoLeafId: "a2", redoLeafId: "c1" });
    const root = buildTree([ent("compaction", "c0", { summary: "S", firstKeptEntryId: "x", tokensBefore: 1 })]);
    const plan = planCompactionUndo(root.getEntry("c0"), root.getBranch());
    expect(plan).toMatchObject({ ok: true, undoLeafId: null });
    moveLeaf(root, null);
    expect(root.getLeafId()).toBeNull();
  });

  it("refuses entries that are not compactions and compactions off the current branch", () => {
    const tree = buildTree(base);
    expect(planCompactionUndo(tree.getEntry("u1"), tree.getBranch())).toEqual({ ok: false, reason: "Entry u1 is not a compaction" });
    expect(planCompactionUndo(undefined, tree.getBranch())).toEqual({ ok: false, reason: "Entry not found" });
    tree.branch("a1");
    expect(planCompactionUndo(tree.getEntry("c1"), tree.getBranch())).toEqual({ ok: false, reason: "The current leaf is not on this compaction's branch" });
  });

  it("undoes threshold and overflow compactions the same way (an overflow compaction sits under the error reply)", () => {
    const overflow = linked(
      ...base.slice(0, 4),
      msg("e1", assistant("", { stopReason: "error" })),
      ent("compaction", "c2", { summary: "S", firstKeptEntryId: "u2", tokensBefore: 5000 }),
    );
    const tree = buildTree(overflow);
    expect(planCompactionUndo(tree.getEntry("c2"), tree.getBranch())).toMatchObject({ ok: true, undoLeafId: "e1", redoLeafId: "c2" });
  });
});

describe("reviewCompaction", () => {
  it("lists sibling compactions of the same parent with their fact checks, marking the active one", () => {
    const tree = buildTree([
      ...base,
      { ...ent("compaction", "c2", { summary: "Renamed `loadConfig`; next the tests.", firstKeptEntryId: "u2", tokensBefore: 900, details: { arborFocus: "names" } }), parentId: "a2" },
    ]);
    tree.branch("a3");
    const review = reviewCompaction(tree, "c2")!;
    expect(review.alternatives.map((c) => [c.id, c.active, c.focus])).toEqual([
      ["c1", true, undefined],
      ["c2", false, "names"],
    ]);
    expect(review.compaction.id).toBe("c2");
    expect(review.compaction.check.facts.find((f) => f.kind === "identifier")).toMatchObject({ text: "loadConfig", carried: true, entryId: "u1" });
    expect(review.compaction.summaryTokens).toBe(Math.ceil("Renamed `loadConfig`; next the tests.".length / 4));
    expect(review.undo).toMatchObject({ ok: false });
    expect(reviewCompaction(tree, "c1")!.undo).toMatchObject({ ok: true, undoLeafId: "a2", redoLeafId: "a3" });
    expect(reviewCompaction(tree, "u1")).toBeUndefined();
  });
});
