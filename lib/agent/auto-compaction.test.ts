import { describe, expect, it } from "vitest";
import { CONTINUE_PROMPT } from "@/lib/agent/auto-compaction";
import { ScriptedModel, type SetupOptions, setup } from "@/test/agent-harness";
import { words } from "@/test/compaction-helpers";
import { HookRegistry } from "@/lib/hooks/registry";
import { assistantEntry, toolCall, userEntry } from "@/test/session-factories";
import type { SessionEntry, UserMessage } from "@/lib/session/types";

/** Three earlier user/assistant turns of 100 estimated tokens per message. */
function history(): SessionEntry[] {
  const out: SessionEntry[] = [];
  let parent: string | null = null;
  for (let i = 0; i < 3; i++) {
    out.push(userEntry(`u${i}`, parent, words(100)));
    out.push(assistantEntry(`a${i}`, `u${i}`, words(100), { usage: { input: 100 * (i + 1), output: 100 } }));
    parent = `a${i}`;
  }
  return out;
}

/** Window 10000, reserve 1000: the threshold is contextTokens > 9000 (session-engine.md §4 shouldCompact). */
function thresholdSetup(opts: SetupOptions = {}) {
  return setup({
    entries: history(),
    modelOptions: { contextWindow: 10_000 },
    ...opts,
    settings: { ...opts.settings, compaction: { reserveTokens: 1000, keepRecentTokens: 100, ...opts.settings?.compaction } },
  });
}

const compactions = (entries: SessionEntry[]) => entries.filter((e) => e.type === "compaction");

describe("threshold compaction (session-engine.md §13.2 step 9, §13.3)", () => {
  it("does not fire at equality (contextTokens === window − reserve)", async () => {
    const { agent, store, model, ofType } = thresholdSetup();
    model!.script({ text: "ok", usage: { input: 100, totalTokens: 9000 } });
    await agent.prompt("next");
    expect(ofType("auto_compaction_start")).toHaveLength(0);
    expect(compactions(store.getEntries())).toHaveLength(0);
  });

  it("fires above it, appends a compaction and auto-continues with the synthetic message", async () => {
    const { agent, store, model, ofType, delays } = thresholdSetup();
    model!.script({ text: "ok", usage: { input: 100, totalTokens: 9001 } }, { text: "continuing" });

    const last = await agent.prompt("next");

    expect(ofType("auto_compaction_start")).toEqual([{ type: "auto_compaction_start", reason: "threshold" }]);
    const end = ofType("auto_compaction_end")[0];
    expect(end).toMatchObject({ aborted: false, willRetry: false });
    expect(end?.result?.summary).toContain("history summary");
    const stored = store.getEntries();
    expect(compactions(stored)).toHaveLength(1);
    const tail = stored.slice(-4).map((e) => (e.type === "message" ? e.message.role : e.type));
    expect(tail).toEqual(["assistant", "compaction", "user", "assistant"]);
    const continueMsg = stored.at(-2);
    expect(continueMsg?.type === "message" && (continueMsg.message as UserMessage)).toMatchObject({
      content: CONTINUE_PROMPT,
      synthetic: true,
    });
    expect(last?.content).toEqual([{ type: "text", text: "continuing" }]);
    // The continued call starts from the summary and ends with the synthetic prompt.
    const sent = model!.requests[1]!.messages;
    expect(JSON.stringify(sent[0])).toContain("Recap follows.");
    expect(sent.at(-1)).toMatchObject({ role: "user", content: CONTINUE_PROMPT });
    expect(delays).toEqual([]);
    const compactionEvents = ofType("compaction_end");
    expect(compactionEvents[0]).toMatchObject({ reason: "threshold", aborted: false, entryId: compactions(stored)[0]?.id });
  });

  it("does not continue when compaction.autoContinue is false", async () => {
    const { agent, store, model, ofType } = thresholdSetup({ settings: { compaction: { autoContinue: false } } });
    model!.script({ text: "ok", usage: { input: 100, totalTokens: 9500 } });
    const last = await agent.prompt("next");
    expect(ofType("auto_compaction_end")[0]?.result).toBeDefined();
    expect(model!.requests).toHaveLength(1);
    expect(store.getEntries().at(-1)?.type).toBe("compaction");
    expect(last?.content).toEqual([{ type: "text", text: "ok" }]);
  });

  it("session-engine.md §13.5 example: hook-supplied result, 190000+1000 of 200000, autoContinue off, a queued message → continues once after 100 ms", async () => {
    const hooks = new HookRegistry();
    hooks.on("session_before_compact", () => ({
      compaction: { summary: "Hook summary", firstKeptEntryId: "u2", tokensBefore: 191_000 },
    }));
    const { agent, store, model, ofType, delays } = setup({
      entries: history(),
      hooks,
      settings: { compaction: { autoContinue: false } },
    });
    model!.script(
      () => {
        agent.queueMessage({ role: "custom", customType: "note", content: "queued", display: true });
        return { text: "big", usage: { input: 190_000, output: 1000 } };
      },
      { text: "after queue", usage: { input: 2000, output: 10 } },
    );

    await agent.prompt("next");

    expect(ofType("auto_compaction_start")).toEqual([{ type: "auto_compaction_start", reason: "threshold" }]);
    expect(delays).toEqual([100]);
    expect(model!.requests).toHaveLength(2);
    expect(model!.requests[1]!.messages.at(-1)).toMatchObject({ role: "user", content: [{ type: "text", text: "queued" }] });
    const compaction = compactions(store.getEntries())[0];
    expect(compaction).toMatchObject({ summary: "Hook summary", tokensBefore: 191_000, fromExtension: true });
    expect(model!.summarizeRequests).toHaveLength(0);
  });

  it("a hook cancel ends the auto-compaction as aborted, with nothing written", async () => {
    const hooks = new HookRegistry();
    hooks.on("session_before_compact", () => ({ cancel: true }));
    const { agent, store, model, ofType } = thresholdSetup({ hooks });
    model!.script({ text: "ok", usage: { totalTokens: 9500 } });
    await agent.prompt("next");
    expect(ofType("auto_compaction_end")).toEqual([
      { type: "auto_compaction_end", result: undefined, aborted: true, willRetry: false },
    ]);
    expect(compactions(store.getEntries())).toHaveLength(0);
  });

  it("lifecycle events reach the hooks too", async () => {
    const hooks = new HookRegistry();
    const seen: string[] = [];
    hooks.on("auto_compaction_start", (e) => void seen.push(`start ${e.reason}`));
    hooks.on("auto_compaction_end", (e) => void seen.push(`end ${e.aborted}`));
    const { agent, model } = thresholdSetup({ hooks, settings: { compaction: { autoContinue: false } } });
    model!.script({ text: "ok", usage: { totalTokens: 9500 } });
    await agent.prompt("next");
    expect(seen).toEqual(["start threshold", "end false"]);
  });
});

describe("pruning inside checkCompaction (session-engine.md §8 integration)", () => {
  const bigTools = {
    definitions: [{ name: "bash", description: "run", inputSchema: {} }],
    execute: async () => ({ content: words(30_000) }),
  };
  const calls = [toolCall("c1", "bash"), toolCall("c2", "bash"), toolCall("c3", "bash")];
  // Notice "[Output truncated - 30000 tokens]" is 33 chars = 9 tokens, so one prune saves 29991.
  const saved = 30_000 - 9;

  it("prunes before the threshold check and subtracts tokensSaved", async () => {
    const { agent, store, model, ofType } = setup({ tools: bigTools });
    model!.script({ toolCalls: calls }, { text: "done", usage: { totalTokens: 190_000 } });
    await agent.prompt("run them");

    expect(ofType("prune")).toEqual([{ type: "prune", prunedCount: 1, tokensSaved: saved }]);
    // 190000 − 29991 = 160009 ≤ 200000 − 16384: no compaction although 190000 alone would compact.
    expect(ofType("auto_compaction_start")).toHaveLength(0);
    const oldest = store.getEntries().find((e) => e.type === "message" && e.message.role === "toolResult")!;
    expect(oldest.type === "message" && oldest.message).toMatchObject({
      content: [{ type: "text", text: "[Output truncated - 30000 tokens]" }],
      prunedAt: expect.any(Number),
    });
    expect(store.getPrunedOriginal(oldest.id)).toEqual([{ type: "text", text: words(30_000) }]);
  });

  it("still compacts when the remaining tokens exceed the threshold, after pruning", async () => {
    const { agent, model, events } = setup({ tools: bigTools, settings: { compaction: { autoContinue: false } } });
    model!.script({ toolCalls: calls }, { text: "done", usage: { totalTokens: 215_000 } });
    await agent.prompt("run them");
    const order = events.map((e) => e.type).filter((t) => t === "prune" || t === "auto_compaction_start");
    expect(order).toEqual(["prune", "auto_compaction_start"]);
  });
});

describe("model candidates and retries (session-engine.md §13.3 steps 5–6, 10)", () => {
  function fallbackSetup(first: SetupOptions["settings"] = {}) {
    const other = new ScriptedModel({ provider: "openai", id: "gpt-small", contextWindow: 100_000 });
    const locked = new ScriptedModel({ provider: "openai", id: "big", contextWindow: 1_000_000, hasApiKey: false });
    const huge = new ScriptedModel({ provider: "google", id: "huge", contextWindow: 500_000 });
    const ctx = thresholdSetup({
      otherModels: [other, locked, huge],
      settings: { ...first, modelRoles: { smol: "openai/gpt-small", commit: "openai/big" }, compaction: { autoContinue: false } },
    });
    ctx.model!.script({ text: "ok", usage: { totalTokens: 9500 } });
    return { ...ctx, other, locked, huge };
  }

  it("moves to the next candidate after a non-retryable failure", async () => {
    const ctx = fallbackSetup();
    const current = ctx.model!;
    current.summarizer = () => async () => ({ stopReason: "error", errorMessage: "invalid request" });
    await ctx.agent.prompt("next");
    expect(ctx.other.summarizeRequests.length).toBeGreaterThan(0);
    expect(ctx.huge.summarizeRequests).toHaveLength(0);
    expect(ctx.ofType("auto_compaction_end")[0]?.result).toBeDefined();
    expect(ctx.delays).toEqual([]);
  });

  it("skips the wait and moves on when retry-after exceeds 30 s and another candidate remains", async () => {
    const ctx = fallbackSetup();
    ctx.model!.summarizer = () => async () => ({ stopReason: "error", errorMessage: "429 rate limited, retry-after: 60" });
    await ctx.agent.prompt("next");
    expect(ctx.delays).toEqual([]);
    expect(ctx.other.summarizeRequests.length).toBeGreaterThan(0);
  });

  it("reports the last error with the threshold wording when every candidate fails", async () => {
    const ctx = fallbackSetup({ retry: { enabled: false } });
    for (const m of [ctx.model!, ctx.other, ctx.huge]) {
      m.summarizer = () => async () => ({ stopReason: "error", errorMessage: `bad ${m.info.id}` });
    }
    await ctx.agent.prompt("next");
    expect(ctx.ofType("auto_compaction_end")[0]).toEqual({
      type: "auto_compaction_end",
      result: undefined,
      aborted: false,
      willRetry: false,
      errorMessage: "Auto-compaction failed: Summarization failed: bad huge",
    });
    expect(compactions(ctx.store.getEntries())).toHaveLength(0);
  });

  it("fails with 'no available model' when no candidate has an API key", async () => {
    const { agent, model, ofType } = thresholdSetup({
      modelOptions: { contextWindow: 10_000, hasApiKey: false },
      settings: { compaction: { autoContinue: false } },
    });
    model!.script({ text: "ok", usage: { totalTokens: 9500 } });
    await agent.prompt("next");
    expect(ofType("auto_compaction_end")[0]?.errorMessage).toBe(
      "Auto-compaction failed: Compaction failed: no available model",
    );
  });

  it("retries a thrown remote-endpoint error (503) after baseDelayMs, passing the endpoint to the summarizer", async () => {
    const endpoint = "http://127.0.0.1:9/compact";
    const { agent, model, ofType, delays, warnings, records } = thresholdSetup({
      settings: { compaction: { autoContinue: false, remoteEndpoint: endpoint } },
      modelOptions: {
        contextWindow: 10_000,
        summaries: [
          async () => {
            throw new Error("Remote compaction failed (503 Service Unavailable)");
          },
        ],
      },
    });
    model!.script({ text: "ok", usage: { totalTokens: 9500 } });
    await agent.prompt("next");
    expect(delays).toEqual([2000]);
    expect(warnings).toHaveLength(1);
    expect(ofType("auto_compaction_end")[0]?.result).toBeDefined();
    expect(model!.summarizerOptions[0]?.remoteEndpoint).toBe(endpoint);
    // The failed call is recorded too (reserveTokens 1000 → history maxTokens 800, session-engine.md §6.3).
    const failed = records.filter((r) => r.response.stopReason === "error");
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({
      kind: "history",
      request: { maxOutputTokens: 800, reasoning: "high" },
      response: { errorMessage: "Remote compaction failed (503 Service Unavailable)" },
    });
    expect(ofType("compaction_summary_delta").length).toBeGreaterThan(0);
  });
});
