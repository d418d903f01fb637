import { describe, expect, it } from "vitest";
import type { SessionAgent } from "@/lib/agent/session-agent";
import { setup } from "@/test/agent-harness";
import { words } from "@/test/compaction-helpers";
import { assistantEntry, userEntry } from "@/test/session-factories";
import type { SessionEntry } from "@/lib/session/types";

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
