/**
 * streamAssistant against the fake OpenAI-compatible server through the REAL
 * @ai-sdk/openai-compatible provider (no fetch or SDK mocks): content, usage mapping
 * (session-engine.md §1.5), stop reasons, and error texts that the §13.5/§14 checks can read.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { assistant, call, toolResult, user } from "@/test/compaction-helpers";
import { isContextOverflow, isRetryableError, isRetryableErrorMessage, parseRetryAfter } from "@/lib/compaction/overflow";
import { createProviderRegistry, type ResolvedModel } from "@/lib/llm/providers";
import { type AssistantDelta, streamAssistant } from "@/lib/llm/stream-assistant";
import { type FakeLlmServer, startFakeLlmServer } from "@/test/fake-llm-server";

let server: FakeLlmServer;
let model: ResolvedModel;

beforeAll(async () => {
  server = await startFakeLlmServer();
  model = createProviderRegistry({ compatible: { baseURL: server.url, models: ["fake-model"] } }).resolveModel("openai-compatible/fake-model");
});
beforeEach(() => server.reset());
afterAll(() => server.close());

const schema = (name: string) => ({ type: "object", properties: { [name]: { type: "string" } }, required: [name] });
const tools = [
  { name: "read", description: "Read a file", inputSchema: schema("path") },
  { name: "bash", description: "Run a command", inputSchema: schema("command") },
];

describe("streamAssistant: successful turns (session-engine.md §1.5)", () => {
  it("streams a text turn into an AssistantMessage with mapped usage and timings", async () => {
    server.script({ text: "Hello there, this is streamed.", chunkSize: 5, delayMs: 2, usage: { promptTokens: 100, completionTokens: 20, cachedTokens: 30 } });
    const deltas: AssistantDelta[] = [];
    const msg = await streamAssistant({ model, system: "Be brief.", messages: [user("hi")], maxOutputTokens: 321, onDelta: (e) => deltas.push(e) });

    expect(msg).toMatchObject({
      role: "assistant",
      content: [{ type: "text", text: "Hello there, this is streamed." }],
      api: "openai-completions",
      provider: "openai-compatible",
      model: "fake-model",
      usage: { input: 70, output: 20, cacheRead: 30, cacheWrite: 0, totalTokens: 120 },
      stopReason: "stop",
    });
    expect(msg.errorMessage).toBeUndefined();
    expect(msg.ttft).toBeGreaterThanOrEqual(0);
    expect(msg.duration).toBeGreaterThanOrEqual(msg.ttft ?? 0);
    expect(msg.timestamp).toBeLessThanOrEqual(Date.now());

    const text = deltas.filter((d) => d.type === "text-delta");
    expect(text.length).toBeGreaterThan(3);
    expect(text.map((d) => d.delta).join("")).toBe("Hello there, this is streamed.");
    expect(deltas.at(-1)).toEqual({ type: "finish", message: msg });

    const [req] = server.requests;
    expect(req).toMatchObject({ stream: true, includeUsage: true, maxTokens: 321, system: "Be brief.", lastUserText: "hi" });
  });

  it("parses streamed tool calls into toolCall blocks after the text", async () => {
    server.script({
      text: "Let me look.",
      toolCalls: [
        { id: "call_a", name: "read", arguments: { path: "lib/config.ts" }, argumentChunks: 4 },
        { id: "call_b", name: "bash", arguments: { command: "git status" } },
      ],
    });
    const seen: AssistantDelta[] = [];
    const msg = await streamAssistant({ model, messages: [user("inspect")], tools, onDelta: (e) => seen.push(e) });
    expect(msg.content).toEqual([
      { type: "text", text: "Let me look." },
      { type: "toolCall", id: "call_a", name: "read", arguments: { path: "lib/config.ts" } },
      { type: "toolCall", id: "call_b", name: "bash", arguments: { command: "git status" } },
    ]);
    expect(msg.stopReason).toBe("toolUse");
    expect(seen.filter((e) => e.type === "tool-call")).toHaveLength(2);
    expect(server.requests[0]?.tools).toHaveLength(2);
  });

  it("turns reasoning_content deltas into a thinking block before the text", async () => {
    server.script({ reasoning: "First, consider the question.", text: "Answer.", chunkSize: 6 });
    const seen: AssistantDelta[] = [];
    const msg = await streamAssistant({ model, messages: [user("why?")], onDelta: (e) => seen.push(e) });
    expect(msg.content).toEqual([
      { type: "thinking", thinking: "First, consider the question." },
      { type: "text", text: "Answer." },
    ]);
    expect(seen.some((e) => e.type === "reasoning-delta")).toBe(true);
  });

  it("maps finish_reason length, and treats tool calls finished with 'stop' as toolUse", async () => {
    server.script({ text: "cut", finishReason: "length" }, { toolCalls: [{ id: "c", name: "read", arguments: { path: "x" } }], finishReason: "stop" });
    expect((await streamAssistant({ model, messages: [user("a")] })).stopReason).toBe("length");
    expect((await streamAssistant({ model, messages: [user("b")], tools })).stopReason).toBe("toolUse");
  });

  it("sends the history with tool calls and results adjacent (session-engine.md §3)", async () => {
    const history = [user("q"), assistant("", { calls: [call("t1", "read", { path: "a.ts" })] }), toolResult("t1", "file body", { toolName: "read" })];
    await streamAssistant({ model, messages: history, tools });
    const roles = server.requests[0]?.messages.map((m) => m.role);
    expect(roles).toEqual(["user", "assistant", "tool"]);
    expect(server.requests[0]?.messages[2]).toMatchObject({ role: "tool", tool_call_id: "t1", content: "file body" });
  });
});

describe("streamAssistant: errors never throw (session-engine.md §13.5, §14)", () => {
  it("a 429 with retry-after gives an error the retry logic can read", async () => {
    server.script({
      kind: "error",
      status: 429,
      message: "Rate limit reached for requests",
      errorType: "requests",
      code: "rate_limit_exceeded",
      headers: { "retry-after": "2" },
    });
    const msg = await streamAssistant({ model, messages: [user("hi")] });
    expect(msg.stopReason).toBe("error");
    expect(msg.errorMessage).toMatch(/^429 Too Many Requests: Rate limit reached for requests/);
    expect(parseRetryAfter(msg.errorMessage ?? "")).toBe(2000);
    expect(isRetryableErrorMessage(msg.errorMessage ?? "")).toBe(true);
    expect(isRetryableError(msg)).toBe(true);
    expect(isContextOverflow(msg)).toBe(false);
    expect(msg.content).toEqual([]);
  });

  it("a 400 context-length error is an overflow", async () => {
    server.script({
      kind: "error",
      status: 400,
      message: "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.",
      errorType: "invalid_request_error",
      code: "context_length_exceeded",
    });
    const msg = await streamAssistant({ model, messages: [user("long")] });
    expect(msg.errorMessage).toMatch(/^400 Bad Request: This model's maximum context length is 8192 tokens/);
    expect(isContextOverflow(msg)).toBe(true);
    expect(isRetryableError(msg)).toBe(false);
  });

  it("a bodiless 413 reads as '413 status code (no body)' (session-engine.md §14)", async () => {
    server.script({ kind: "error", status: 413, body: "" });
    const msg = await streamAssistant({ model, messages: [user("long")] });
    expect(msg.errorMessage).toBe("413 status code (no body)");
    expect(isContextOverflow(msg)).toBe(true);
  });

  it("a 503 with a plain-text body keeps the status and is retryable", async () => {
    server.script({ kind: "error", status: 503, body: "upstream overloaded" });
    const msg = await streamAssistant({ model, messages: [user("x")] });
    expect(msg.errorMessage).toMatch(/^503 Service Unavailable/);
    expect(isRetryableError(msg)).toBe(true);
  });

  it("abort mid-stream gives stopReason aborted with the partial text", async () => {
    const full = "one two three four five six seven eight nine ten eleven twelve";
    server.script({ text: full, chunkSize: 4, delayMs: 25 });
    const controller = new AbortController();
    const msg = await streamAssistant({
      model,
      messages: [user("count")],
      signal: controller.signal,
      onDelta: (e) => {
        if (e.type === "text-delta") controller.abort();
      },
    });
    expect(msg.stopReason).toBe("aborted");
    const text = msg.content[0]?.type === "text" ? msg.content[0].text : "";
    expect(text.length).toBeGreaterThan(0);
    expect(text.length).toBeLessThan(full.length);
    expect(full.startsWith(text)).toBe(true);
  });

  it("abort while the server has not answered yet gives aborted", async () => {
    server.script({ kind: "hang" });
    const controller = new AbortController();
    const pending = streamAssistant({ model, messages: [user("wait")], signal: controller.signal });
    while (server.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    const msg = await pending;
    expect(msg.stopReason).toBe("aborted");
    expect(msg.content).toEqual([]);
  });

  it("a socket closed mid-stream gives a retryable connection error", async () => {
    server.script({ text: "a".repeat(100), chunkSize: 10, failAfterChunks: 4 });
    const msg = await streamAssistant({ model, messages: [user("x")] });
    expect(msg.stopReason, JSON.stringify(msg)).toBe("error");
    expect(msg.errorMessage).toMatch(/^Connection error: /);
    expect(isRetryableErrorMessage(msg.errorMessage ?? "")).toBe(true);
  });

  it("garbage output and a missing finish reason are errors", async () => {
    server.script({ kind: "garbage" }, { text: "no end", finishReason: null });
    const garbage = await streamAssistant({ model, messages: [user("x")] });
    expect(garbage.stopReason).toBe("error");
    expect(garbage.errorMessage).toBeTruthy();
    const unfinished = await streamAssistant({ model, messages: [user("y")] });
    expect(unfinished.stopReason).toBe("error");
  });

  it("a refused connection is a retryable connection error", async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", () => r()));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const dead = createProviderRegistry({ compatible: { baseURL: `http://127.0.0.1:${port}/v1`, models: ["m"] } }).resolveModel();
    const msg = await streamAssistant({ model: dead, messages: [user("x")] });
    expect(msg.stopReason).toBe("error");
    expect(msg.errorMessage).toMatch(/^Connection error: /);
    expect(isRetryableErrorMessage(msg.errorMessage ?? "")).toBe(true);
  });
});
