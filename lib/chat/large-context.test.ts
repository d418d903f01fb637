/**
 * A context of over a megabyte leaves through node:http (lib/llm/upload-fetch.ts) instead of
 * fetch: through the real chat route, provider and fake model server, every message of the
 * stored path arrives, the answer streams back as text deltas and is saved, Stop ends such a
 * turn mid-stream with its partial answer saved as aborted, and a connection that breaks
 * mid-answer keeps the partial answer with a retryable connection error, as over fetch.
 */
import { describe, expect, it } from "vitest";
import { readUIStream } from "@/lib/chat-protocol/read-ui-stream";
import { isRetryableErrorMessage } from "@/lib/compaction/overflow";
import type { AssistantMessage } from "@/lib/session/types";
import { useTestDatabase } from "@/test/db";
import { newSession, postChat, readAll, seedHistory, stop, storedPath, textOf, useHarness } from "@/test/chat-harness";

useTestDatabase();

const h = useHarness({ contextWindow: 10_000_000 });

/** Bytes of the last request's body as the model server parsed it back. */
const lastBodyBytes = () => Buffer.byteLength(JSON.stringify(h.fake.requests.at(-1)?.body ?? {}));

const lastAssistant = async (sessionId: string) =>
  (await storedPath(sessionId)).flatMap((e) => (e.type === "message" && e.message.role === "assistant" ? [e.message as AssistantMessage] : [])).at(-1)!;

describe("a context over a megabyte", () => {
  it("arrives whole, and the answer streams back and is saved", async () => {
    const { id } = await newSession();
    await seedHistory(id, 200, 3000);
    const chunks = await readAll(await postChat(id, "the last question"));
    expect(lastBodyBytes()).toBeGreaterThan(1024 * 1024);
    const sent = h.fake.requests.at(-1)!.messages.filter((m) => m.role !== "system");
    expect(sent).toHaveLength(401);
    expect(h.fake.requests.at(-1)!.lastUserText).toBe("the last question");
    expect(chunks.filter((c) => c.type === "text-delta").length).toBeGreaterThan(0);
    expect(textOf(chunks)).toBe("Echo: the last question");
    const saved = await lastAssistant(id);
    expect(saved.stopReason).toBe("stop");
    expect(saved.content).toEqual([{ type: "text", text: "Echo: the last question" }]);
  });

  it("Stop ends the turn mid-stream; the partial answer is saved as aborted", async () => {
    const { id } = await newSession();
    await seedHistory(id, 200, 3000);
    const text = "one two three four five six seven eight nine ten";
    h.fake.script({ text, chunkSize: 3, delayMs: 25 });
    const res = await postChat(id, "count");
    let deltas = 0;
    for await (const chunk of readUIStream(res)) {
      if (chunk.type === "text-delta" && ++deltas === 2) expect(await stop(id)).toEqual({ ok: true, stopped: true });
    }
    expect(lastBodyBytes()).toBeGreaterThan(1024 * 1024);
    const saved = await lastAssistant(id);
    expect(saved.stopReason).toBe("aborted");
    const partial = saved.content.map((b) => (b.type === "text" ? b.text : "")).join("");
    expect(partial.length).toBeGreaterThan(0);
    expect(text.startsWith(partial)).toBe(true);
    expect(partial).not.toBe(text);
  });

  it("a connection that breaks mid-answer keeps the partial answer, with a retryable connection error", async () => {
    // Retries off, so the failed answer is the turn's last one (with them on it is retried).
    const { id } = await newSession({ retry: { enabled: false } });
    await seedHistory(id, 200, 3000);
    const text = "Once upon a time there was a tree with many branches";
    h.fake.script({ text, chunkSize: 5, delayMs: 15, failAfterChunks: 4 });
    const chunks = await readAll(await postChat(id, "tell me"));
    expect(lastBodyBytes()).toBeGreaterThan(1024 * 1024);
    const saved = await lastAssistant(id);
    const partial = saved.content.map((b) => (b.type === "text" ? b.text : "")).join("");
    expect(partial.length).toBeGreaterThan(0);
    expect(text.startsWith(partial) && partial !== text).toBe(true);
    expect(textOf(chunks)).toBe(partial);
    expect(saved.errorMessage).toMatch(/^Connection error: /);
    expect(isRetryableErrorMessage(saved.errorMessage ?? "")).toBe(true);
  });
});
