/**
 * POST /api/chat end to end: real database, real fake model server over HTTP, real
 * @ai-sdk/openai-compatible provider. A streamed turn is saved; bad input gets clear 4xx.
 */
import { describe, expect, it } from "vitest";
import type { AssistantMessage, SessionEntry } from "@/lib/session/types";
import { useTestDatabase } from "@/test/db";
import { waitForRun } from "@/lib/runs";
import {
  dataOf,
  MODEL_ID,
  newSession,
  postChat,
  postRaw,
  readAll,
  useHarness,
  storedPath,
  textOf,
  transcript,
  uiMessage,
} from "@/test/chat-harness";

useTestDatabase();

const h = useHarness();

describe("POST /api/chat: a streamed turn", () => {
  it("streams text deltas and data-entry parts, and saves user + assistant with usage and stopReason", async () => {
    const s = await newSession();
    h.fake.script({ text: "Hello from the fake model", usage: { promptTokens: 42, completionTokens: 7 }, chunkSize: 5 });

    const res = await postChat(s.id, "Hi there");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const chunks = await readAll(res);

    expect(chunks[0]).toMatchObject({ type: "start", messageMetadata: { sessionId: s.id } });
    expect(chunks.at(-1)).toEqual({ type: "finish" });
    const types = chunks.map((c) => c.type);
    expect(types).toContain("start-step");
    expect(types).toContain("text-start");
    expect(types.indexOf("finish-step")).toBeGreaterThan(types.lastIndexOf("text-delta"));
    expect(chunks.filter((c) => c.type === "text-delta").length).toBeGreaterThan(1);
    expect(textOf(chunks)).toBe("Hello from the fake model");

    const saved = dataOf<{ entry: SessionEntry; leafId: string }>(chunks, "entry");
    expect(saved.map((d) => (d.entry.type === "message" ? d.entry.message.role : d.entry.type))).toEqual(["user", "assistant"]);
    expect(saved.at(-1)?.leafId).toBe(saved.at(-1)?.entry.id);
    expect(chunks.filter((c) => c.type.startsWith("data-")).every((c) => c.transient === true)).toBe(true);
    expect(dataOf(chunks, "usage").length).toBeGreaterThan(0);

    const path = await storedPath(s.id);
    expect(path.map((e) => e.id)).toEqual(saved.map((d) => d.entry.id));
    const assistant = (path[1] as Extract<SessionEntry, { type: "message" }>).message as AssistantMessage;
    expect(assistant.stopReason).toBe("stop");
    expect(assistant.model).toBe(MODEL_ID);
    expect(assistant.usage).toMatchObject({ input: 42, output: 7 });
    expect(await transcript(s.id)).toEqual(["user: Hi there", "assistant: Hello from the fake model"]);

    // The model saw our system prompt, the workspace tools and the user's text.
    const req = h.fake.requests[0]!;
    expect(req.system).toContain("Arbor");
    expect((req.tools ?? []).length).toBe(6);
    expect(req.lastUserText).toBe("Hi there");
  });

  it("rebuilds the context from the store: the client sends only the newest message", async () => {
    const s = await newSession();
    await readAll(await postChat(s.id, "first"));
    await readAll(await postChat(s.id, "second"));
    const req = h.fake.requests.at(-1)!;
    expect(req.messages.filter((m) => m.role !== "system").map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(await transcript(s.id)).toEqual(["user: first", "assistant: Echo: first", "user: second", "assistant: Echo: second"]);
  });

  it("runs a tool call in the session workspace and saves the tool result", async () => {
    const s = await newSession({ agent: { tools: { enabled: ["write", "read"] } } });
    h.fake.script({ toolCalls: [{ name: "write", arguments: { path: "note.txt", content: "hi" } }] }, { text: "Wrote it." });
    const chunks = await readAll(await postChat(s.id, "write a note"));
    expect(chunks.filter((c) => c.type === "start-step")).toHaveLength(2);
    expect(await transcript(s.id)).toEqual(["user: write a note", "assistant: [toolCall]", expect.stringMatching(/^toolResult: /), "assistant: Wrote it."]);
    expect((h.fake.requests[0]!.tools ?? []).map((t) => (t as { function: { name: string } }).function.name)).toEqual(["read", "write"]);
  });

  it("persists a model picked in the request as the session's chat model", async () => {
    const s = await newSession();
    await readAll(await postChat(s.id, "hi", { model: `openai-compatible/${MODEL_ID}` }));
    const { findSessionMeta } = await import("@/lib/db");
    expect((await findSessionMeta({ id: s.id }))?.settings).toEqual({ agent: { chatModel: `openai-compatible/${MODEL_ID}` } });
  });
});

describe("POST /api/chat: bad input", () => {
  const errorOf = async (res: Response) => ({ status: res.status, body: (await res.json()) as { error: string; code: string } });

  it("400 for a body that is not JSON, a missing message, a non-user message, or no text", async () => {
    const s = await newSession();
    expect(await errorOf(await postRaw("{not json"))).toMatchObject({ status: 400, body: { error: "The request body is not valid JSON" } });
    expect(await errorOf(await postRaw({ id: s.id }))).toMatchObject({ status: 400, body: { code: "invalid_input" } });
    const assistant = { ...uiMessage("x"), role: "assistant" };
    expect((await errorOf(await postRaw({ id: s.id, message: assistant }))).body.error).toBe(
      'message.role: expected a message with role "user"',
    );
    const blank = await errorOf(await postRaw({ id: s.id, message: uiMessage("   ") }));
    expect(blank).toEqual({ status: 400, body: { error: "message: the message has no text", code: "invalid_input" } });
    const badModel = await errorOf(await postRaw({ id: s.id, message: uiMessage("x"), model: "nope" }));
    expect(badModel.body.error).toBe('model: expected a "provider/modelId" string');
  });

  it("400 for a model whose provider is not configured", async () => {
    const s = await newSession();
    const res = await errorOf(await postChat(s.id, "hi", { model: "anthropic/claude-sonnet-4-5" }));
    expect(res).toEqual({
      status: 400,
      body: { error: "Model anthropic/claude-sonnet-4-5 is not available: No API key for anthropic", code: "unavailable" },
    });
  });

  it("404 for an unknown session", async () => {
    const res = await errorOf(await postChat("no-such-session", "hi"));
    expect(res).toEqual({ status: 404, body: { error: "Session no-such-session not found", code: "not_found" } });
  });

  it("413 for a body over 1 MB", async () => {
    const s = await newSession();
    const res = await postChat(s.id, "x".repeat(1024 * 1024 + 10));
    expect(res.status).toBe(413);
    expect(((await res.json()) as { code: string }).code).toBe("too_large");
  });

  it("409 for a second turn while one is running", async () => {
    const s = await newSession();
    h.fake.script({ text: "slow answer here", chunkSize: 2, delayMs: 30 });
    const first = await postChat(s.id, "one");
    const second = await postChat(s.id, "two");
    expect(await errorOf(second)).toEqual({
      status: 409,
      body: { error: "A turn is already running in this session", code: "busy" },
    });
    await readAll(first);
    await waitForRun(s.id);
    expect(await transcript(s.id)).toEqual(["user: one", "assistant: slow answer here"]);
  });
});
