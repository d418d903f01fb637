/** AgentEvents → UI message stream chunks (the protocol of ui-types.ts), with a recording writer. */
import { describe, expect, it } from "vitest";
import type { AgentEvent } from "@/lib/agent/ports";
import { CONFLICT_MESSAGE } from "@/lib/agent/ports";
import { assistantMsg, userMsg } from "@/test/session-factories";
import type { SessionEntry } from "@/lib/session/types";
import { createAgentStreamSink } from "./ui-stream";

function recorder() {
  const chunks: Record<string, unknown>[] = [];
  const writer = {
    write: (c: unknown) => chunks.push(c as Record<string, unknown>),
    merge: () => {},
    onError: undefined,
  };
  return { chunks, writer };
}

const entry = (id: string): SessionEntry =>
  ({ type: "message", id, parentId: null, timestamp: "2025-01-01T00:00:00.000Z", message: userMsg("hi") }) as SessionEntry;

describe("createAgentStreamSink", () => {
  it("maps a model call to one step with text and reasoning parts, buffering until attached", () => {
    const sink = createAgentStreamSink();
    sink.setLeafSource(() => "e2");
    sink.start("s1");
    const events: AgentEvent[] = [
      { type: "message_start", role: "assistant", provider: "p", model: "m" },
      { type: "message_delta", delta: { type: "reasoning-delta", delta: "think", contentIndex: 0 } },
      { type: "message_delta", delta: { type: "text-delta", delta: "Hel", contentIndex: 1 } },
      { type: "message_delta", delta: { type: "text-delta", delta: "lo", contentIndex: 1 } },
      { type: "message_end", message: assistantMsg("Hello"), entryId: "e2" },
      { type: "message_saved", entryId: "e2", entry: entry("e2") },
    ];
    for (const e of events) sink.emit(e);
    const { chunks, writer } = recorder();
    sink.attach(writer);
    sink.finish();
    expect(chunks).toEqual([
      { type: "start", messageMetadata: { sessionId: "s1" } },
      { type: "start-step" },
      { type: "reasoning-start", id: "reasoning-1-0" },
      { type: "reasoning-delta", id: "reasoning-1-0", delta: "think" },
      { type: "text-start", id: "text-1-1" },
      { type: "text-delta", id: "text-1-1", delta: "Hel" },
      { type: "text-delta", id: "text-1-1", delta: "lo" },
      { type: "reasoning-end", id: "reasoning-1-0" },
      { type: "text-end", id: "text-1-1" },
      { type: "finish-step" },
      { type: "data-entry", data: { entry: entry("e2"), leafId: "e2" }, transient: true },
      { type: "finish" },
    ]);
  });

  it("closes an unfinished step on finish (e.g. the commit failed)", () => {
    const sink = createAgentStreamSink();
    const { chunks, writer } = recorder();
    sink.attach(writer);
    sink.emit({ type: "message_start", role: "assistant", provider: "p", model: "m" });
    sink.emit({ type: "message_delta", delta: { type: "text-delta", delta: "x", contentIndex: 0 } });
    sink.finish();
    expect(chunks.map((c) => c.type)).toEqual(["start-step", "text-start", "text-delta", "text-end", "finish-step", "finish"]);
  });

  it("holds an automatic compaction's end until auto_compaction_end, to carry willRetry", () => {
    const sink = createAgentStreamSink();
    const { chunks, writer } = recorder();
    sink.attach(writer);
    sink.emit({ type: "auto_compaction_start", reason: "overflow" });
    sink.emit({ type: "compaction_start", reason: "overflow" });
    sink.emit({ type: "compaction_summary_delta", kind: "history", delta: "S" });
    sink.emit({ type: "compaction_end", reason: "overflow", entryId: "c1", aborted: false });
    sink.emit({ type: "auto_compaction_end", result: undefined, aborted: false, willRetry: true });
    expect(chunks.map((c) => c.data)).toEqual([
      { phase: "start", reason: "overflow" },
      { phase: "delta", reason: "overflow", kind: "history", delta: "S" },
      { phase: "end", reason: "overflow", entryId: "c1", willRetry: true },
    ]);
  });

  it("reports a failed overflow recovery as an error, and the store conflict with code conflict, once each", () => {
    const sink = createAgentStreamSink();
    const { chunks, writer } = recorder();
    sink.attach(writer);
    sink.emit({ type: "auto_compaction_end", result: undefined, aborted: false, willRetry: false, errorMessage: "recovery failed" });
    sink.emit({ type: "error", message: CONFLICT_MESSAGE, conflict: true });
    sink.error(CONFLICT_MESSAGE, "conflict");
    expect(chunks.map((c) => c.data)).toEqual([
      { message: "recovery failed", code: "failed" },
      { message: CONFLICT_MESSAGE, code: "conflict" },
    ]);
  });

  it("classifies an error by the agent's conflict flag, never by its words", () => {
    const sink = createAgentStreamSink();
    const { chunks, writer } = recorder();
    sink.attach(writer);
    sink.emit({ type: "error", message: CONFLICT_MESSAGE });
    expect(chunks.map((c) => c.data)).toEqual([{ message: CONFLICT_MESSAGE, code: "failed" }]);
  });

  it("forwards retries, prunes and usage as transient data parts", () => {
    const sink = createAgentStreamSink();
    const { chunks, writer } = recorder();
    sink.attach(writer);
    sink.emit({ type: "auto_retry_start", attempt: 1, maxAttempts: 3, delayMs: 2000, errorMessage: "429" });
    sink.emit({ type: "auto_retry_end", success: true, attempt: 1 });
    sink.emit({ type: "prune", prunedCount: 2, tokensSaved: 900 });
    const usage = { tokens: 10, usageTokens: 10, trailingTokens: 0, lastUsageIndex: 0, contextWindow: 100, percent: 10 };
    sink.emit({ type: "context_usage", usage });
    expect(chunks).toEqual([
      { type: "data-retry", data: { phase: "start", attempt: 1, maxAttempts: 3, delayMs: 2000, errorMessage: "429" }, transient: true },
      { type: "data-retry", data: { phase: "end", success: true, attempt: 1 }, transient: true },
      { type: "data-prune", data: { prunedCount: 2, tokensSaved: 900 }, transient: true },
      { type: "data-usage", data: usage, transient: true },
    ]);
  });

  it("ignores a writer that throws (the client went away)", () => {
    const sink = createAgentStreamSink();
    sink.attach({
      write: () => {
        throw new Error("closed");
      },
      merge: () => {},
      onError: undefined,
    });
    expect(() => sink.emit({ type: "prune", prunedCount: 1, tokensSaved: 1 })).not.toThrow();
  });
});
