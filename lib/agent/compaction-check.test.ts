import { describe, expect, it } from "vitest";
import type { SessionAgent } from "@/lib/agent/session-agent";
import { setup } from "@/test/agent-harness";
import { words } from "@/test/compaction-helpers";
import { assistantEntry, messageEntry, toolCall, toolResultMsg, userEntry } from "@/test/session-factories";
import type { SessionEntry, ToolResultMessage } from "@/lib/session/types";

/** A session whose last assistant already reports 9500 of a 10000 window (reserve 1000). */
function fullSession(): SessionEntry[] {
  return [
    userEntry("u0", null, words(100)),
    assistantEntry("a0", "u0", words(100), { usage: { input: 300, output: 100 } }),
    userEntry("u1", "a0", words(100)),
    assistantEntry("a1", "u1", words(100), { usage: { input: 400, totalTokens: 9500 } }),
  ];
}

const small = { compaction: { reserveTokens: 1000, keepRecentTokens: 100 } };

describe("checkCompaction before a prompt (session-engine.md §13.1)", () => {
  it("compacts before sending, and the user's prompt is the only continuation", async () => {
    const { agent, store, model, events, ofType } = setup({
      entries: fullSession(),
      modelOptions: { contextWindow: 10_000 },
      settings: small,
    });
    model!.script({ text: "answer", usage: { input: 500 } });

    await agent.prompt("next question");

    expect(ofType("auto_compaction_start")).toEqual([{ type: "auto_compaction_start", reason: "threshold" }]);
    // The compaction lands before the user message; no synthetic continue prompt is sent.
    const tail = store.getEntries().slice(-3).map((e) => (e.type === "message" ? e.message.role : e.type));
    expect(tail).toEqual(["compaction", "user", "assistant"]);
    expect(model!.requests).toHaveLength(1);
    expect(model!.requests[0]!.messages.at(-1)).toMatchObject({ role: "user", content: "next question" });
    const order = events.map((e) => e.type);
    expect(order.indexOf("auto_compaction_end")).toBeLessThan(order.indexOf("turn_start"));
  });

  it("skipCompactionCheck skips it", async () => {
    const { agent, model, ofType } = setup({ entries: fullSession(), modelOptions: { contextWindow: 10_000 }, settings: small });
    model!.script({ text: "answer", usage: { input: 500 } });
    await agent.prompt("next", { skipCompactionCheck: true });
    expect(ofType("auto_compaction_start")).toHaveLength(0);
  });

  it("compaction.enabled false disables the check entirely", async () => {
    const { agent, model, ofType } = setup({
      entries: fullSession(),
      modelOptions: { contextWindow: 10_000 },
      settings: { compaction: { ...small.compaction, enabled: false } },
    });
    model!.script({ text: "answer", usage: { totalTokens: 9900 } });
    await agent.prompt("next");
    expect(ofType("auto_compaction_start")).toHaveLength(0);
    expect(ofType("prune")).toHaveLength(0);
  });
});

describe("aborting an auto-compaction (session-engine.md §13.3 steps 7, 10)", () => {
  it("ends with aborted: true, writes nothing and does not continue", async () => {
    let agentRef: SessionAgent | undefined;
    const { agent, store, model, ofType } = setup({
      entries: fullSession().slice(0, 2),
      modelOptions: {
        contextWindow: 10_000,
        summaries: [
          async () => {
            agentRef?.abort();
            return { stopReason: "aborted" };
          },
        ],
      },
      settings: small,
    });
    agentRef = agent;
    model!.script({ text: "big", usage: { totalTokens: 9500 } }, { text: "never" });

    await agent.prompt("next");

    expect(ofType("auto_compaction_end")).toEqual([
      { type: "auto_compaction_end", result: undefined, aborted: true, willRetry: false },
    ]);
    expect(store.getEntries().some((e) => e.type === "compaction")).toBe(false);
    expect(model!.requests).toHaveLength(1);
  });
});

describe("a branch remembered as having nothing to prune (compaction-check.ts)", () => {
  // Three 30k-token results: the oldest lies beyond the 40k protected window (session-engine.md §8).
  function branch(oldestPruned: boolean): SessionEntry[] {
    const calls = [toolCall("c1", "bash"), toolCall("c2", "bash"), toolCall("c3", "bash")];
    const oldest = oldestPruned
      ? toolResultMsg("c1", "[Output truncated - 30000 tokens]", { toolName: "bash", prunedAt: 1 })
      : toolResultMsg("c1", words(30_000), { toolName: "bash" });
    return [
      userEntry("u0", null, "run them"),
      assistantEntry("a0", "u0", "", { toolCalls: calls }),
      messageEntry("r1", "a0", oldest),
      messageEntry("r2", "r1", toolResultMsg("c2", words(30_000), { toolName: "bash" })),
      messageEntry("r3", "r2", toolResultMsg("c3", words(30_000), { toolName: "bash" })),
      assistantEntry("a1", "r3", "done", { usage: { input: 1000 } }),
    ];
  }

  it("is checked again when the same ids are loaded with other content (another process restored an output)", async () => {
    const first = setup({ entries: branch(true) });
    first.model!.script({ text: "ok", usage: { input: 1000 } });
    await first.agent.prompt("next");
    expect(first.ofType("prune")).toHaveLength(0);

    // The same session loaded again, up to the same last entry, with the oldest output restored.
    const restored = branch(false)[2]!;
    const entries = first.store.getEntries().map((e) => (e.id === restored.id ? restored : e));
    const again = setup({ entries });
    again.model!.script({ text: "ok", usage: { input: 1000 } });
    await again.agent.prompt("next");
    expect(again.ofType("prune")).toEqual([{ type: "prune", prunedCount: 1, tokensSaved: 30_000 - 9 }]);
    expect(again.model!.requests[0]!.messages[2]).toMatchObject({ role: "toolResult", content: [{ type: "text", text: "[Output truncated - 30000 tokens]" }] });
  });

  it("is checked again after an entry of the branch is replaced in the same tree", async () => {
    const { agent, tree, model, ofType } = setup({ entries: branch(true) });
    model!.script({ text: "ok", usage: { input: 1000 } }, { text: "ok again", usage: { input: 1000 } });
    await agent.prompt("next");
    expect(ofType("prune")).toHaveLength(0);
    // The oldest output comes back (an undone prune); the check before the next prompt must see it.
    const r1 = tree.getEntry("r1") as SessionEntry & { message: ToolResultMessage };
    tree.replaceEntries([{ ...r1, message: toolResultMsg("c1", words(30_000), { toolName: "bash" }) } as SessionEntry]);
    await agent.prompt("and again");
    expect(ofType("prune")).toEqual([{ type: "prune", prunedCount: 1, tokensSaved: 30_000 - 9 }]);
    // Pruned before the request left, not only after the reply.
    expect(model!.requests[1]!.messages[2]).toMatchObject({ role: "toolResult", content: [{ type: "text", text: "[Output truncated - 30000 tokens]" }] });
  });
});
