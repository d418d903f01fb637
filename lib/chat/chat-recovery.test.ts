/**
 * How a turn survives trouble, end to end through POST /api/chat: overflow recovery (spec
 * §13.2 step 7, once per prompt), 429 retries (§13.5), Stop (saves the partial message as
 * "aborted") and a client that goes away (the turn completes and is saved anyway).
 */
import { describe, expect, it } from "vitest";
import type { AssistantMessage, SessionEntry } from "@/lib/session/types";
import { useTestDatabase } from "@/test/db";
import { echoResponder, type FakeRequest, type FakeStep, looksLikeSummarization } from "@/test/fake-llm-server";
import { readUIStream } from "@/lib/chat-protocol/read-ui-stream";
import { waitForRun } from "@/lib/runs";
import {
  dataOf,
  newSession,
  postChat,
  postRaw,
  readAll,
  seedHistory,
  useHarness,
  stop,
  storedPath,
  textOf,
  transcript,
  uiMessage,
} from "@/test/chat-harness";

useTestDatabase();

const h = useHarness();

const OVERFLOW = "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.";
const RECOVERY_FAILED =
  "Context overflow recovery failed after one compact-and-retry attempt. Try reducing context or switching to a larger-context model.";

/** Summaries answer normally; the first `failures` chat calls overflow. */
function overflowing(failures: number) {
  let chats = 0;
  return (req: FakeRequest): FakeStep => {
    if (looksLikeSummarization(req)) return echoResponder(req);
    chats++;
    if (chats <= failures) return { kind: "error", status: 400, message: OVERFLOW, errorType: "invalid_request_error" };
    return { text: "Recovered answer" };
  };
}

const assistants = (path: SessionEntry[]) =>
  path.flatMap((e) => (e.type === "message" && e.message.role === "assistant" ? [e.message as AssistantMessage] : []));

describe("overflow recovery (session-engine.md §13.2 step 7)", () => {
  it("compacts and retries once: compaction entry, then the retried assistant is saved", async () => {
    const s = await newSession({ compaction: { keepRecentTokens: 150 } });
    await seedHistory(s.id, 4);
    h.fake.setDefault(overflowing(1));
    const chunks = await readAll(await postChat(s.id, "big question"));

    const compaction = dataOf<{ phase: string; reason: string; willRetry?: boolean; entryId?: string }>(chunks, "compaction");
    expect(compaction[0]).toEqual({ phase: "start", reason: "overflow" });
    expect(compaction.at(-1)).toMatchObject({ phase: "end", reason: "overflow", willRetry: true });
    expect(dataOf(chunks, "error")).toEqual([]);

    const path = await storedPath(s.id);
    expect((await transcript(s.id)).slice(-4)).toEqual([
      "user: big question",
      "assistant: ",
      "[compaction]",
      "assistant: Recovered answer",
    ]);
    // The failed assistant stays stored, on the path before the compaction.
    const failed = assistants(path).find((m) => m.stopReason === "error");
    expect(failed?.errorMessage).toContain("maximum context length is 8192 tokens");
    expect(path.at(-2)?.id).toBe(compaction.at(-1)?.entryId);
  });

  it("a second overflow reports that recovery failed", async () => {
    const s = await newSession({ compaction: { keepRecentTokens: 150 } });
    await seedHistory(s.id, 4);
    h.fake.setDefault(overflowing(Number.POSITIVE_INFINITY));
    const chunks = await readAll(await postChat(s.id, "big question"));
    expect(dataOf(chunks, "error")).toEqual([{ message: RECOVERY_FAILED, code: "failed" }]);
    const path = await storedPath(s.id);
    expect(path.filter((e) => e.type === "compaction")).toHaveLength(1);
    expect(assistants(path).slice(-1)[0]?.stopReason).toBe("error");
  });
});

describe("turn retries (session-engine.md §13.5)", () => {
  it("retries a 429 after baseDelayMs and saves the answer", async () => {
    const s = await newSession({ retry: { baseDelayMs: 5 } });
    h.fake.script(
      { kind: "error", status: 429, message: "Rate limit reached", headers: { "retry-after": "0" } },
      { text: "Second time lucky" },
    );
    const chunks = await readAll(await postChat(s.id, "hello"));
    const retry = dataOf<Record<string, unknown>>(chunks, "retry");
    expect(retry[0]).toMatchObject({ phase: "start", attempt: 1, maxAttempts: 3, delayMs: 5 });
    expect(String(retry[0]?.errorMessage)).toContain("429");
    expect(retry.at(-1)).toEqual({ phase: "end", success: true, attempt: 1 });
    expect(h.fake.requests).toHaveLength(2);
    const path = await storedPath(s.id);
    expect(assistants(path).map((m) => m.stopReason)).toEqual(["error", "stop"]);
    expect((await transcript(s.id)).at(-1)).toBe("assistant: Second time lucky");
  });
});

describe("Stop and disconnects", () => {
  const slow = { text: "one two three four five six seven eight nine ten", chunkSize: 3, delayMs: 25 };

  it("Stop aborts the turn and saves the partial message with stopReason aborted", async () => {
    const s = await newSession();
    h.fake.script(slow);
    const res = await postChat(s.id, "count");
    const chunks = [];
    for await (const chunk of readUIStream(res)) {
      chunks.push(chunk);
      if (chunk.type === "text-delta" && chunks.filter((c) => c.type === "text-delta").length === 2) {
        expect(await stop(s.id)).toEqual({ ok: true, stopped: true });
      }
    }
    expect(chunks.at(-1)).toEqual({ type: "finish" });
    const last = assistants(await storedPath(s.id)).at(-1)!;
    expect(last.stopReason).toBe("aborted");
    const partial = last.content.map((b) => (b.type === "text" ? b.text : "")).join("");
    expect(partial.length).toBeGreaterThan(0);
    expect(slow.text.startsWith(partial)).toBe(true);
    expect(partial).not.toBe(slow.text);
    expect(await stop(s.id)).toEqual({ ok: true, stopped: false });
  });

  it("a client that cancels the body mid-stream does not stop the turn: it completes and is saved", async () => {
    const s = await newSession();
    h.fake.script(slow);
    const res = await postChat(s.id, "count");
    const reader = res.body!.getReader();
    await reader.read();
    await reader.read();
    await reader.cancel();
    await waitForRun(s.id);
    const last = assistants(await storedPath(s.id)).at(-1)!;
    expect(last.stopReason).toBe("stop");
    expect(last.content).toEqual([{ type: "text", text: slow.text }]);
    expect(h.fake.requests[0]?.clientClosed).toBeUndefined();
  });

  it("aborting the request itself does not stop the turn either", async () => {
    const s = await newSession();
    h.fake.script(slow);
    const controller = new AbortController();
    const res = await postRaw({ id: s.id, message: uiMessage("count") }, { signal: controller.signal });
    const it = readUIStream(res);
    await it.next();
    controller.abort();
    await waitForRun(s.id);
    expect((await transcript(s.id)).at(-1)).toBe(`assistant: ${slow.text}`);
  });

  it("the stream of a completed turn carries the whole text", async () => {
    const s = await newSession();
    h.fake.script(slow);
    expect(textOf(await readAll(await postChat(s.id, "count")))).toBe(slow.text);
  });
});
