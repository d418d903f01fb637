/**
 * Model server faults during a chat turn, end to end through POST /api/chat (real database, real
 * fake OpenAI-compatible server over HTTP): the connection dropping mid-stream, the server
 * hanging (before answering, or mid-stream), and answers that are not readable. Each time the
 * user sees a clear error (a `data-error` part, and the saved assistant entry with stopReason
 * "error" and its errorMessage), whatever arrived before the fault is kept, the session stays
 * consistent (its leaf is the last saved entry), and the next turn works.
 */
import { describe, expect, it } from "vitest";
import { findSessionMeta } from "@/lib/db";
import { isRetryableErrorMessage } from "@/lib/compaction/overflow";
import type { AssistantMessage, SessionEntry } from "@/lib/session/types";
import { useTestDatabase } from "@/test/db";
import type { FakeStep } from "@/test/fake-llm-server";
import { waitForRun } from "@/lib/runs";
import { dataOf, newSession, postChat, readAll, useHarness, storedPath, textOf, transcript } from "@/test/chat-harness";

useTestDatabase();

const IDLE_MS = 1000;
const h = useHarness({ runtime: { modelIdleTimeoutMs: IDLE_MS } });

/** Retries off: each fault ends the turn at once (the retry case has its own test). */
const NO_RETRY = { retry: { enabled: false } };

type Saved = { entry: SessionEntry; leafId: string | null };

/** Runs one turn and checks what every fault must leave behind; returns the failed assistant. */
async function failingTurn(step: FakeStep, settings: unknown = NO_RETRY) {
  const s = await newSession(settings);
  h.fake.script(step);
  const started = Date.now();
  const chunks = await readAll(await postChat(s.id, "tell me a story"));
  const elapsed = Date.now() - started;
  await waitForRun(s.id);

  const saved = dataOf<Saved>(chunks, "entry");
  const last = saved.at(-1);
  const assistant = last?.entry.type === "message" ? (last.entry.message as AssistantMessage) : undefined;
  expect(assistant?.role).toBe("assistant");
  expect(assistant?.stopReason).toBe("error");
  expect(assistant?.errorMessage).toBeTruthy();

  // The user is told, in the stream, and the message is in the store as streamed.
  const errors = dataOf<{ message: string; code?: string }>(chunks, "error");
  expect(errors).toHaveLength(1);
  expect(errors[0]?.message).toContain(assistant?.errorMessage?.replace(/[.\s]+$/, ""));
  expect(errors[0]?.message).toContain("send it again");
  expect(chunks.at(-1)).toEqual({ type: "finish" });

  // Consistent: the stored leaf is the last saved entry, and the path is user → failed assistant.
  const path = await storedPath(s.id);
  expect(path.map((e) => e.id)).toEqual(saved.map((d) => d.entry.id));
  expect((await findSessionMeta({ id: s.id }))?.leafId).toBe(last?.entry.id);
  expect(last?.leafId).toBe(last?.entry.id);
  return { s, chunks, assistant: assistant as AssistantMessage, elapsed };
}

/** The next turn in the same session works and continues from the failed entry. */
async function nextTurnWorks(sessionId: string) {
  h.fake.script({ text: "Back again." });
  const chunks = await readAll(await postChat(sessionId, "try again"));
  expect(dataOf(chunks, "error")).toEqual([]);
  expect((await transcript(sessionId)).slice(-2)).toEqual(["user: try again", "assistant: Back again."]);
}

const textOfMessage = (m: AssistantMessage) =>
  m.content
    .filter((b) => b.type === "text")
    .map((b) => (b as { text: string }).text)
    .join("");

describe("the connection drops mid-stream", () => {
  it("keeps the partial answer, stores a retryable connection error, and the next turn works", async () => {
    const { s, chunks, assistant } = await failingTurn({
      text: "Once upon a time there was a tree with many branches",
      chunkSize: 5,
      delayMs: 15,
      failAfterChunks: 4,
    });
    const partial = textOfMessage(assistant);
    expect(partial.length).toBeGreaterThan(0);
    expect("Once upon a time there was a tree with many branches".startsWith(partial)).toBe(true);
    expect(partial.length).toBeLessThan("Once upon a time there was a tree with many branches".length);
    // What the user saw streaming is what was saved.
    expect(textOf(chunks)).toBe(partial);
    expect(assistant.errorMessage).toMatch(/^Connection error: /);
    expect(isRetryableErrorMessage(assistant.errorMessage ?? "")).toBe(true);
    await nextTurnWorks(s.id);
    // The failed partial answer is part of what the model sees next (it was shown to the user).
    expect(h.fake.requests.at(-1)?.messages.filter((m) => m.role !== "system").map((m) => m.role)).toEqual([
      "user",
      "assistant",
      "user",
    ]);
  });

  it("with retries on, retries the dropped call, then reports the final error", async () => {
    const drop: FakeStep = { text: "partial words here", chunkSize: 4, delayMs: 10, failAfterChunks: 2 };
    h.fake.setDefault(drop);
    const { s, chunks } = await failingTurn(drop, { retry: { enabled: true, maxRetries: 2, baseDelayMs: 5 } });
    const retries = dataOf<{ phase: string; success?: boolean; finalError?: string }>(chunks, "retry");
    expect(retries.filter((r) => r.phase === "start")).toHaveLength(2);
    expect(retries.at(-1)).toMatchObject({ phase: "end", success: false });
    expect(retries.at(-1)?.finalError).toMatch(/Connection error/);
    expect(h.fake.requests).toHaveLength(3);
    h.fake.setDefault({ text: "Back again." });
    await nextTurnWorks(s.id);
  });
});

describe("the model server hangs", () => {
  it("before answering: the turn ends after the idle timeout with a clear message", async () => {
    const { s, assistant, elapsed } = await failingTurn({ kind: "hang" });
    expect(assistant.errorMessage).toBe("The model stopped responding (no data for 1 s)");
    expect(assistant.content).toEqual([]);
    expect(elapsed).toBeGreaterThanOrEqual(IDLE_MS - 50);
    expect(elapsed).toBeLessThan(IDLE_MS + 4000);
    // The hung request was abandoned, not left open.
    expect(h.fake.requests.at(-1)?.clientClosed).toBe(true);
    await nextTurnWorks(s.id);
  });

  it("mid-stream: the text so far is kept with the same message", async () => {
    const { s, chunks, assistant } = await failingTurn({ text: "Some words, then silence", chunkSize: 6, delayMs: 10, hangAfterChunks: 2 });
    expect(assistant.errorMessage).toBe("The model stopped responding (no data for 1 s)");
    const partial = textOfMessage(assistant);
    expect(partial.length).toBeGreaterThan(0);
    expect("Some words, then silence".startsWith(partial)).toBe(true);
    expect(textOf(chunks)).toBe(partial);
    await nextTurnWorks(s.id);
  });

  it("a slow but steady stream is not cut off: only silence counts", async () => {
    const s = await newSession(NO_RETRY);
    // 8 chunks 300 ms apart: 2.4 s in all, longer than the 1 s idle timeout.
    h.fake.script({ text: "slow and steady wins", chunkSize: 3, delayMs: 300 });
    const chunks = await readAll(await postChat(s.id, "take your time"));
    expect(dataOf(chunks, "error")).toEqual([]);
    expect((await transcript(s.id)).at(-1)).toBe("assistant: slow and steady wins");
  });
});

describe("the model server sends garbage", () => {
  it("an event that is not JSON", async () => {
    const { s, assistant } = await failingTurn({ kind: "garbage" });
    expect(assistant.errorMessage).toBe("The model server sent a response that is not valid JSON: this is not json");
    await nextTurnWorks(s.id);
  });

  it("JSON of the wrong shape: one plain sentence, not a validator dump", async () => {
    const { s, assistant } = await failingTurn({ kind: "garbage", body: '{"choices":[{"delta":{"content":42}}]}' });
    expect(assistant.errorMessage).toBe(
      'The model server sent a response in an unexpected format: {"choices":[{"delta":{"content":42}}]}',
    );
    expect(assistant.errorMessage).not.toContain("\n");
    await nextTurnWorks(s.id);
  });

  it("an HTML error page with a 502", async () => {
    const { s, assistant } = await failingTurn({ kind: "error", status: 502, body: "<html><body>Bad gateway</body></html>" });
    expect(assistant.errorMessage).toBe("502 Bad Gateway: <html><body>Bad gateway</body></html>");
    await nextTurnWorks(s.id);
  });

  it("a stream that ends without a finish reason", async () => {
    const { s, assistant } = await failingTurn({ text: "cut short", finishReason: null });
    expect(assistant.errorMessage).toMatch(/stream ended without a finish reason/);
    expect(textOfMessage(assistant)).toBe("cut short");
    await nextTurnWorks(s.id);
  });
});
