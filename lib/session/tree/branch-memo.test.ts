/**
 * SessionTree's branch memo (branch-memo.ts): after every kind of change — appends, a
 * compaction, a model change, a branch switch, a move back up the branch (a retry), a rewrite
 * (replaceEntries), a fork — the tree's
 * branch and context equal a fresh walk and a fresh buildSessionContext over the same entries.
 */
import { describe, expect, it } from "vitest";
import { assistant, toolResult, user } from "@/test/compaction-helpers";
import { pathToRoot } from "@/lib/session/tree/branch-path";
import { buildSessionContext } from "@/lib/session/context";
import { buildTree } from "@/test/session-factories";
import type { SessionTree } from "@/lib/session/tree/tree";

function expectFresh(tree: SessionTree): void {
  const leafId = tree.getLeafId();
  const leaf = leafId === null ? undefined : tree.getEntry(leafId);
  expect(tree.getBranch()).toEqual(leaf ? pathToRoot(leaf, tree.getIndex()) : []);
  const fresh = buildSessionContext([...tree.getEntries()], leafId);
  const ctx = tree.buildContext();
  expect(ctx).toEqual(fresh);
  // Same message objects, in the same order (the per-message caches rely on identity).
  expect(ctx.messages.every((m, i) => m === fresh.messages[i])).toBe(true);
}

describe("SessionTree's branch memo", () => {
  it("matches a fresh build after appends, a model change, a compaction, a branch switch and a rewrite", () => {
    const tree = buildTree([]);
    const u0 = tree.appendMessage(user("first"));
    tree.appendMessage(assistant("one"));
    expectFresh(tree);
    const u1 = tree.appendMessage(user("second"));
    tree.appendMessage(assistant("two", { calls: [{ type: "toolCall", id: "c1", name: "bash", arguments: {} }] }));
    const r1 = tree.appendMessage(toolResult("c1", "output", { toolName: "bash" }));
    expectFresh(tree);
    // The caller's copy is its own.
    tree.buildContext().messages.push(user("not in the tree"));
    tree.getBranch().pop();
    expectFresh(tree);

    tree.appendModelChange("openai/gpt-5");
    tree.appendMessage(user("third"));
    expectFresh(tree);
    tree.appendCompaction("summary of it all", undefined, u1, 1234);
    tree.appendMessage(user("after the compaction"));
    expectFresh(tree);

    tree.branch(u0);
    expectFresh(tree);
    tree.appendMessage(assistant("another branch"));
    expectFresh(tree);

    tree.branch(r1);
    expectFresh(tree);
    const entry = tree.getEntry(r1)!;
    if (entry.type !== "message") throw new Error("r1 is a message entry");
    tree.replaceEntries([{ ...entry, message: toolResult("c1", "[pruned]", { toolName: "bash" }) }]);
    expectFresh(tree);
    expect(tree.buildContext().messages.at(-1)).toMatchObject({ content: [{ type: "text", text: "[pruned]" }] });
  });

  it("a move back up the branch cuts the remembered context, with the default model left on the path", () => {
    const tree = buildTree([]);
    tree.appendMessage(user("first"));
    const a0 = tree.appendMessage({ ...assistant("one"), provider: "openai", model: "early" });
    tree.appendModelChange("openai/gpt-5", "smol");
    const u1 = tree.appendMessage(user("second"));
    tree.appendMessage(assistant("two"));
    const u2 = tree.appendMessage(user("third"));
    tree.appendMessage(assistant("three"));
    expectFresh(tree);
    // A retry: back to the last user message, then a new answer and a turn on it.
    tree.branch(u2);
    expectFresh(tree);
    expect(tree.buildContext().models).toEqual({ default: "anthropic/test-model", smol: "openai/gpt-5" });
    tree.appendMessage(assistant("three again"));
    tree.appendMessage(user("fourth"));
    expectFresh(tree);
    // Back past the later assistants: the default model is the earlier one's again.
    tree.branch(u1);
    expectFresh(tree);
    tree.branch(a0);
    expectFresh(tree);
    expect(tree.buildContext().models.default).toBe("openai/early");
    // Back past a non-message entry (the model change): built again, still right.
    tree.branch(u2);
    expectFresh(tree);
    tree.branch(a0);
    expectFresh(tree);
    // Back to where no assistant is left: no default model.
    const root = tree.getBranch()[0]!.id;
    tree.branch(root);
    expectFresh(tree);
    expect(tree.buildContext().models.default).toBeUndefined();
  });

  it("a move back up a compacted branch keeps the summary and the kept messages", () => {
    const tree = buildTree([]);
    tree.appendMessage(user("first"));
    tree.appendMessage(assistant("one"));
    const kept = tree.appendMessage(user("kept"));
    tree.appendMessage(assistant("kept answer"));
    tree.appendCompaction("summary", undefined, kept, 100);
    const after = tree.appendMessage(user("after"));
    tree.appendMessage(assistant("answer"));
    tree.appendMessage(user("more"));
    expectFresh(tree);
    tree.branch(after);
    expectFresh(tree);
    expect(tree.buildContext().messages.map((m) => m.role)).toEqual(["compactionSummary", "user", "assistant", "user"]);
  });

  it("a fork starts from its parent's branch and then goes its own way", () => {
    const tree = buildTree([]);
    tree.appendMessage(user("a"));
    const a = tree.appendMessage(assistant("b"));
    tree.buildContext();
    const fork = tree.fork();
    expectFresh(fork);
    fork.appendMessage(user("only in the fork"));
    expectFresh(fork);
    expectFresh(tree);
    expect(tree.getLeafId()).toBe(a);
    tree.appendMessage(user("only in the tree"));
    expectFresh(tree);
    expectFresh(fork);
  });
});
