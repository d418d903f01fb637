/**
 * previewNextTurn: the pre-prompt check replayed in memory (session-engine.md §13.1, §13.2), with pending
 * pruning (§8) and a pending automatic compaction (§5.4 plan applied with a placeholder summary).
 */
import { contentHash } from "@/lib/content-address";
import { describe, expect, it } from "vitest";
import { prepareCompaction } from "@/lib/compaction/prepare";
import { settings, TEST_PROMPTS } from "@/test/compaction-helpers";
import {
  NEXT_MESSAGE_PLACEHOLDER,
  PENDING_COMPACTION_ID,
  previewNextTurn,
} from "@/lib/inspector/preview";
import { buildTurnView } from "@/lib/inspector/turn-view";
import { assistantMsg, messageEntry, toolCall, toolResultMsg, userEntry } from "@/test/session-factories";
import type { LlmMessage, SessionEntry } from "@/lib/session/types";

const big = (tokens: number) => "x".repeat(tokens * 4);
const textOf = (m: LlmMessage) =>
  typeof m.content === "string" ? m.content : m.content.map((b) => ("text" in b ? b.text : "")).join("");

/** Three 30k-token bash outputs, then a short answer with small usage. */
function toolSession(lastUsage: { input: number; output: number }): SessionEntry[] {
  const entries: SessionEntry[] = [userEntry("u", null, "build it")];
  let parent = "u";
  for (let i = 1; i <= 3; i++) {
    entries.push(messageEntry(`a${i}`, parent, assistantMsg("", { toolCalls: [toolCall(`c${i}`, "bash", { cmd: "make" })] })));
    entries.push(messageEntry(`t${i}`, `a${i}`, toolResultMsg(`c${i}`, big(30_000), { toolName: "bash" })));
    parent = `t${i}`;
  }
  entries.push(messageEntry("done", parent, assistantMsg("built", { usage: lastUsage })));
  return entries;
}

/** A plain conversation of `turns` pairs, ~100 tokens each; the last answer reports `input`. */
function chat(turns: number, input: number): SessionEntry[] {
  const entries: SessionEntry[] = [];
  let parent: string | null = null;
  for (let t = 0; t < turns; t++) {
    entries.push(userEntry(`u${t}`, parent, big(100)));
    const usage = t === turns - 1 ? { input, output: 100 } : { input: 1000, output: 100 };
    entries.push(messageEntry(`a${t}`, `u${t}`, assistantMsg(big(100), { usage })));
    parent = `a${t}`;
  }
  return entries;
}

describe("previewNextTurn", () => {
  it("without pending work: the current context, then the user's message", () => {
    const entries = chat(2, 500);
    const p = previewNextTurn(entries, "a1", settings(), TEST_PROMPTS, 200_000, { now: 1 });
    expect(p.messages.map((m) => m.sourceEntryId)).toEqual(["u0", "a0", "u1", "a1", null]);
    expect(p.messages.at(-1)!.placeholder).toBe(true);
    expect(textOf(p.messages.at(-1)!.message)).toBe(NEXT_MESSAGE_PLACEHOLDER);
    expect(p.pending).toEqual({ pruning: null, compaction: null });
    expect(p.lastAssistantEntryId).toBe("a1");
  });

  it("shows pending pruning: the old tool output becomes its notice, the entries stay untouched", () => {
    const entries = toolSession({ input: 1000, output: 10 });
    const p = previewNextTurn(entries, "done", settings(), TEST_PROMPTS, 200_000, { now: 1 });
    expect(p.pending.pruning).toMatchObject({ count: 1, entryIds: ["t1"] });
    expect(p.pending.pruning!.tokensSaved).toBeGreaterThan(20_000);
    expect(p.pending.compaction).toBeNull();
    const t1 = p.messages.find((m) => m.sourceEntryId === "t1")!;
    expect(textOf(t1.message)).toBe("[Output truncated - 30000 tokens]");
    expect(t1.hash).toBe(contentHash(t1.message)); // the pruned form's hash, not the original's
    expect(textOf(p.messages.find((m) => m.sourceEntryId === "t3")!.message)).toHaveLength(120_000);
    const stored = entries.find((e) => e.id === "t1") as { message: LlmMessage };
    expect(textOf(stored.message)).toHaveLength(120_000);
  });

  it("a second preview, and a context without the prune, still show each result as it is (the pruned forms are copies)", () => {
    const entries = toolSession({ input: 1000, output: 10 });
    const first = previewNextTurn(entries, "done", settings(), TEST_PROMPTS, 200_000, { now: 1 });
    const again = previewNextTurn(entries, "done", settings(), TEST_PROMPTS, 200_000, { now: 1 });
    expect(again.messages.map((m) => [m.sourceEntryId, m.hash])).toEqual(first.messages.map((m) => [m.sourceEntryId, m.hash]));
    expect(textOf(again.messages.find((m) => m.sourceEntryId === "t1")!.message)).toBe("[Output truncated - 30000 tokens]");
    // Disabled compaction skips pruning: the original output, from the same (memoized) entry objects.
    const plain = previewNextTurn(entries, "done", settings({ enabled: false }), TEST_PROMPTS, 200_000, { now: 3 });
    const t1 = plain.messages.find((m) => m.sourceEntryId === "t1")!;
    expect(textOf(t1.message)).toHaveLength(120_000);
    expect(t1.hash).toBe(contentHash(t1.message));
    expect(t1.hash).not.toBe(first.messages.find((m) => m.sourceEntryId === "t1")!.hash);
  });

  it("a result whose content changed after a preview is previewed from its new content, not from the kept pruned copy", () => {
    const entries = toolSession({ input: 1000, output: 10 });
    const first = previewNextTurn(entries, "done", settings(), TEST_PROMPTS, 200_000);
    expect(textOf(first.messages.find((m) => m.sourceEntryId === "t1")!.message)).toBe("[Output truncated - 30000 tokens]");
    // Rewritten in place, as pruning and restoring do (a new content array on the same message).
    const t1 = entries.find((e) => e.id === "t1") as { message: { content: unknown } };
    t1.message.content = [{ type: "text", text: big(40_000) }];
    const again = previewNextTurn(entries, "done", settings(), TEST_PROMPTS, 200_000);
    const shown = again.messages.find((m) => m.sourceEntryId === "t1")!;
    expect(textOf(shown.message)).toBe("[Output truncated - 40000 tokens]");
    expect(shown.hash).toBe(contentHash(shown.message));
    expect(again.pending.pruning!.tokensSaved).toBeGreaterThan(first.pending.pruning!.tokensSaved);
  });

  it("pruning savings count against the threshold (session-engine.md §13.2 step 9)", () => {
    // 190k context − ~30k saved by pruning = ~160k < 200k − 16384: no compaction.
    const entries = toolSession({ input: 190_000, output: 0 });
    const p = previewNextTurn(entries, "done", settings(), TEST_PROMPTS, 200_000, { now: 1 });
    expect(p.pending.pruning?.count).toBe(1);
    expect(p.pending.compaction).toBeNull();
  });

  it("shows a pending threshold compaction: placeholder summary, then kept messages from firstKeptEntryId", () => {
    const entries = chat(10, 190_000);
    const s = settings({ keepRecentTokens: 250 });
    const p = previewNextTurn(entries, "a9", s, TEST_PROMPTS, 200_000, { now: 1 });
    const plan = prepareCompaction(entries, s)!;
    expect(p.pending.compaction).toEqual({
      reason: "threshold",
      contextTokens: 190_100,
      threshold: 200_000 - 16384,
      firstKeptEntryId: plan.firstKeptEntryId,
      summarizedCount: plan.messagesToSummarize.length + plan.turnPrefixMessages.length,
    });
    const [summary, ...rest] = p.messages;
    expect(summary).toMatchObject({ source: "compaction", sourceEntryId: PENDING_COMPACTION_ID, placeholder: true });
    const kept = rest.slice(0, -1).map((m) => m.sourceEntryId);
    const from = entries.findIndex((e) => e.id === plan.firstKeptEntryId);
    expect(kept).toEqual(entries.slice(from).map((e) => e.id));
    expect(p.messages.at(-1)!.placeholder).toBe(true);

    const view = buildTurnView(
      {
        origin: "preview",
        sessionId: "s",
        callId: null,
        kind: "chat",
        entryId: null,
        model: null,
        contextWindow: 200_000,
        system: null,
        tools: null,
        settings: {},
        messages: p.messages,
        providerPromptTokens: null,
        response: null,
        startedAt: null,
        durationMs: null,
        pending: p.pending,
        notes: [],
      },
      [...entries, p.pendingCompaction!],
    );
    expect(view.compaction).toEqual({ entryId: PENDING_COMPACTION_ID, firstKeptEntryId: plan.firstKeptEntryId });
    expect(view.messages.find((m) => m.firstKept)!.sourceEntryId).toBe(plan.firstKeptEntryId);
  });

  it("an overflow error compacts and is dropped from what is sent (session-engine.md §13.2 step 7)", () => {
    const entries = chat(6, 1000);
    entries.push(
      messageEntry("err", "a5", assistantMsg("", { stopReason: "error", errorMessage: "prompt is too long: 210000 tokens" })),
    );
    const p = previewNextTurn(entries, "err", settings({ keepRecentTokens: 250 }), TEST_PROMPTS, 200_000, { now: 1 });
    expect(p.pending.compaction?.reason).toBe("overflow");
    expect(p.messages.some((m) => m.sourceEntryId === "err")).toBe(false);
  });

  it("does nothing when compaction is disabled, and never reaches the threshold with an unknown window", () => {
    const entries = chat(10, 190_000);
    const off = previewNextTurn(entries, "a9", settings({ enabled: false }), TEST_PROMPTS, 200_000, { now: 1 });
    expect(off.pending).toEqual({ pruning: null, compaction: null });
    const unknown = previewNextTurn(entries, "a9", settings(), TEST_PROMPTS, 0, { now: 1 });
    expect(unknown.pending.compaction).toBeNull();
  });

  it("an empty session previews only the user's message", () => {
    const p = previewNextTurn([], null, settings(), TEST_PROMPTS, 200_000, { now: 1 });
    expect(p.messages).toHaveLength(1);
    expect(p.lastAssistantEntryId).toBeNull();
  });
});
