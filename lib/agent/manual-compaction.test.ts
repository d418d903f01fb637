import { describe, expect, it } from "vitest";
import type { SessionAgent } from "@/lib/agent/session-agent";
import { setup } from "@/test/agent-harness";
import { words } from "@/test/compaction-helpers";
import { HookRegistry } from "@/lib/hooks/registry";
import { assistantEntry, compactionEntry, toolCall, userEntry } from "@/test/session-factories";
import type { SessionEntry } from "@/lib/session/types";

function history(): SessionEntry[] {
  return [
    userEntry("u0", null, words(100)),
    assistantEntry("a0", "u0", words(100), {
      usage: { input: 300, output: 100 },
      toolCalls: [toolCall("t1", "read", { path: "src/a.ts" }), toolCall("t2", "edit", { path: "src/b.ts" })],
    }),
    userEntry("u1", "a0", words(100)),
    assistantEntry("a1", "u1", words(100), { usage: { input: 600, output: 100 } }),
    userEntry("u2", "a1", words(100)),
    assistantEntry("a2", "u2", words(100), { usage: { input: 900, output: 100 } }),
  ];
}

const base = { entries: history(), settings: { compaction: { keepRecentTokens: 150 } } };
const compactions = (entries: SessionEntry[]) => entries.filter((e) => e.type === "compaction");

describe("manual compaction (session-engine.md §13.4)", () => {
  it("compacts with the current model, stores one entry and restarts the context from the summary", async () => {
    const { agent, store, model, ofType } = setup(base);
    const streamed: string[] = [];

    const result = await agent.compact("Focus on tests", { onSummaryText: (kind) => void streamed.push(kind) });

    expect(compactions(store.getEntries())).toHaveLength(1);
    const stored = compactions(store.getEntries())[0]!;
    expect(stored).toMatchObject({ summary: result.summary, firstKeptEntryId: result.firstKeptEntryId, fromExtension: false });
    expect(store.getLeafId()).toBe(stored.id);
    expect(agent.getWorkingMessages()[0]?.role).toBe("compactionSummary");
    const history = model!.summarizeRequests.find((r) => r.kind === "history");
    expect(history?.prompt).toContain("Additional focus: Focus on tests");
    expect(streamed).toContain("history");
    expect(ofType("compaction_start")).toEqual([{ type: "compaction_start", reason: "manual" }]);
    expect(ofType("compaction_end")[0]).toMatchObject({ reason: "manual", aborted: false, entryId: stored.id });
    expect(ofType("auto_compaction_start")).toHaveLength(0);
    expect(ofType("auto_compaction_end")).toHaveLength(0);
    expect(ofType("message_saved").map((e) => e.entryId)).toEqual([stored.id]);

    // The session stays usable.
    model!.script({ text: "still here" });
    await agent.prompt("next");
    expect(JSON.stringify(model!.requests[0]!.messages[0])).toContain("Recap follows.");
  });

  it("throws the §13.4 errors in order", async () => {
    await expect(setup({ ...base, model: null }).agent.compact()).rejects.toThrow("No model selected");
    await expect(setup({ ...base, modelOptions: { hasApiKey: false } }).agent.compact()).rejects.toThrow(
      "No API key for anthropic",
    );
    await expect(setup().agent.compact()).rejects.toThrow("Nothing to compact (session too small)");
    const compacted = [...history(), compactionEntry("c", "a2", "S", "u2")];
    await expect(setup({ entries: compacted }).agent.compact()).rejects.toThrow("Already compacted");
  });

  it("an abort throws 'Compaction cancelled' and writes nothing", async () => {
    let agentRef: SessionAgent | undefined;
    const { agent, store, ofType } = setup({
      ...base,
      modelOptions: {
        summaries: [
          async () => {
            agentRef?.abortCompaction();
            return { stopReason: "aborted" };
          },
        ],
      },
    });
    agentRef = agent;
    const before = { count: store.getEntries().length, commits: store.getCommitCount(), leaf: store.getLeafId() };

    await expect(agent.compact()).rejects.toThrow("Compaction cancelled");

    expect({ count: store.getEntries().length, commits: store.getCommitCount(), leaf: store.getLeafId() }).toEqual(before);
    expect(agent.tree.getEntryCount()).toBe(before.count);
    expect(ofType("compaction_end")[0]).toMatchObject({ aborted: true, errorMessage: "Compaction cancelled" });
  });

  it("runs the hooks in order: session_before_compact → session.compacting → session_compact", async () => {
    const hooks = new HookRegistry();
    const order: string[] = [];
    hooks.on("session_before_compact", (e) => void order.push(`before:${e.customInstructions}`));
    hooks.on("session.compacting", (e) => {
      order.push(`compacting:${e.sessionId}:${e.messages.length}`);
      return { context: ["Ticket ARB-1"], prompt: "CUSTOM PROMPT", preserveData: { keep: 1 } };
    });
    hooks.on("session_compact", (e) => void order.push(`compact:${e.fromExtension}:${e.compactionEntry.type}`));
    const { agent, store, model } = setup({ ...base, hooks });

    const result = await agent.compact("why");

    expect(order[0]).toBe("before:why");
    expect(order[1]).toMatch(/^compacting:session-1:\d+$/);
    expect(order[2]).toBe("compact:false:compaction");
    const history = model!.summarizeRequests.find((r) => r.kind === "history")!;
    expect(history.prompt).toContain("- Ticket ARB-1");
    expect(history.prompt).toContain("CUSTOM PROMPT\n\nAdditional focus: why");
    expect(result.preserveData).toEqual({ keep: 1 });
    expect(compactions(store.getEntries())[0]).toMatchObject({ preserveData: { keep: 1 } });
  });

  it("stores a hook-supplied compaction as given (tokensBefore 999, fromExtension)", async () => {
    const hooks = new HookRegistry();
    let compactingFired = false;
    hooks.on("session_before_compact", () => ({
      compaction: { summary: "From hook", shortSummary: "short", firstKeptEntryId: "u1", tokensBefore: 999, details: { x: 1 } },
    }));
    hooks.on("session.compacting", () => {
      compactingFired = true;
    });
    const { agent, store, model } = setup({ ...base, hooks });
    await agent.compact();
    expect(compactions(store.getEntries())[0]).toMatchObject({
      summary: "From hook",
      shortSummary: "short",
      firstKeptEntryId: "u1",
      tokensBefore: 999,
      details: { x: 1 },
      fromExtension: true,
    });
    expect(compactingFired).toBe(false);
    expect(model!.summarizeRequests).toHaveLength(0);
  });

  it("a hook cancel throws 'Compaction cancelled' and writes nothing", async () => {
    const hooks = new HookRegistry();
    hooks.on("session_before_compact", () => ({ cancel: true }));
    const { agent, store, model } = setup({ ...base, hooks });
    const commits = store.getCommitCount();
    await expect(agent.compact()).rejects.toThrow("Compaction cancelled");
    expect(store.getCommitCount()).toBe(commits);
    expect(compactions(store.getEntries())).toHaveLength(0);
    expect(model!.summarizeRequests).toHaveLength(0);
  });

  it("uses only the current model: a failure propagates without retries or fallbacks", async () => {
    const { agent, delays } = setup({
      ...base,
      modelOptions: { summaries: [{ stopReason: "error", errorMessage: "503 Service Unavailable" }] },
    });
    await expect(agent.compact()).rejects.toThrow("Summarization failed: 503 Service Unavailable");
    expect(delays).toEqual([]);
  });

  it("aborts a running turn first and waits for it", async () => {
    const { agent, model, store } = setup(base);
    model!.script({ text: "thinking…", hang: true });
    const running = agent.prompt("long task");
    await new Promise((r) => setTimeout(r, 0));
    await agent.compact();
    const last = await running;
    expect(last?.stopReason).toBe("aborted");
    expect(store.getEntries().at(-1)?.type).toBe("compaction");
  });
});

describe("previewCompaction", () => {
  it("describes the plan without calling the model", () => {
    const { agent, model } = setup(base);
    const preview = agent.previewCompaction("focus");
    expect(preview).toMatchObject({
      canCompact: true,
      readFiles: ["src/a.ts"],
      modifiedFiles: ["src/b.ts"],
      customInstructions: "focus",
      tokensBefore: 1000,
      hasPreviousSummary: false,
    });
    if (!preview.canCompact) throw new Error("unreachable");
    expect(preview.messagesToSummarize + preview.turnPrefixMessages + preview.keptMessages).toBe(6);
    expect(preview.keptTokensEstimate).toBeGreaterThan(0);
    expect(model!.summarizeRequests).toHaveLength(0);
  });

  it("reports why there is nothing to compact", () => {
    expect(setup().agent.previewCompaction()).toEqual({
      canCompact: false,
      reason: "Nothing to compact (session too small)",
    });
  });
});
