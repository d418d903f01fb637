import { describe, expect, it } from "vitest";
import { setup } from "@/test/agent-harness";
import { HookRegistry } from "@/lib/hooks/registry";
import { assistantEntry, userEntry } from "@/test/session-factories";

/** u1 → a1 → u2 → a2 (leaf). */
const entries = () => [
  userEntry("u1", null, "First message"),
  assistantEntry("a1", "u1", "First reply"),
  userEntry("u2", "a1", "Second message"),
  assistantEntry("a2", "u2", "Second reply"),
];

describe("SessionAgent.navigate (session-engine.md §11.4 + persistence)", () => {
  it("commits a leaf-only move with no entries", async () => {
    const { agent, store } = setup({ entries: entries() });
    const count = store.getEntries().length;
    const result = await agent.navigate("u2");
    expect(result).toMatchObject({ cancelled: false, editorText: "Second message" });
    expect(store.getLeafId()).toBe("a1");
    expect(store.getEntries()).toHaveLength(count);
    expect(store.getCommitCount()).toBe(1);
  });

  it("commits the branch summary and the new leaf together, through the recorded summarizer", async () => {
    const { agent, store, model, records, ofType } = setup({ entries: entries() });
    const result = await agent.navigate("a1", { summarize: true, customInstructions: "Only the gist" });
    const summary = result.summaryEntry!;
    expect(summary).toMatchObject({ type: "branch_summary", parentId: "a1" });
    expect(store.getLeafId()).toBe(summary.id);
    expect(store.getEntry(summary.id)).toMatchObject({ type: "branch_summary", fromId: "a1" });
    expect(model!.summarizeRequests[0]).toMatchObject({ kind: "branch", maxTokens: 2048 });
    expect(model!.summarizeRequests[0]!.prompt).toContain("Only the gist");
    expect(records.map((r) => r.kind)).toEqual(["branch"]);
    expect(ofType("message_saved").map((e) => e.entryId)).toEqual([summary.id]);
  });

  it("does not summarize when branchSummary.enabled is false", async () => {
    const { agent, store, model } = setup({ entries: entries(), settings: { branchSummary: { enabled: false } } });
    const result = await agent.navigate("a1", { summarize: true });
    expect(result.summaryEntry).toBeUndefined();
    expect(store.getLeafId()).toBe("a1");
    expect(model!.summarizeRequests).toHaveLength(0);
  });

  it("commits nothing when a hook cancels", async () => {
    const hooks = new HookRegistry();
    hooks.on("session_before_tree", () => ({ cancel: true }));
    const { agent, store } = setup({ entries: entries(), hooks });
    const result = await agent.navigate("a1", { summarize: true });
    expect(result.cancelled).toBe(true);
    expect(store.getCommitCount()).toBe(0);
    expect(store.getLeafId()).toBe("a2");
  });

  it("the next prompt continues from the new leaf", async () => {
    const { agent, store, model } = setup({ entries: entries() });
    await agent.navigate("a1");
    model!.script({ text: "branched" });
    await agent.prompt("Another second message");
    const user = store.getEntries().at(-2)!;
    expect(user.parentId).toBe("a1");
    expect(model!.requests[0]!.messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
  });
});
