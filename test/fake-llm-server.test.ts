/**
 * The fake OpenAI-compatible server on the wire: raw fetch against a real local socket.
 * (The provider-level behaviour is covered by lib/llm/*.test.ts through @ai-sdk/openai-compatible.)
 */
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { type FakeLlmServer, startFakeLlmServer } from "./fake-llm-server";

let server: FakeLlmServer;

beforeEach(async () => {
  if (!server) server = await startFakeLlmServer({ models: ["m1", "m2"] });
  server.reset();
});
afterAll(async () => {
  await server?.close();
});

function chat(body: Record<string, unknown>, init: RequestInit = {}) {
  return fetch(`${server.url}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: "m1", messages: [{ role: "user", content: "hi" }], ...body }),
    ...init,
  });
}

async function sse(res: Response): Promise<(Record<string, unknown> | "[DONE]")[]> {
  const text = await res.text();
  return text
    .split("\n\n")
    .filter((l) => l.startsWith("data: "))
    .map((l) => l.slice(6))
    .map((d) => (d === "[DONE]" ? "[DONE]" : (JSON.parse(d) as Record<string, unknown>)));
}

async function waitFor(cond: () => boolean, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > until) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 5));
  }
}

type Delta = { content?: string; reasoning_content?: string; tool_calls?: { function: { arguments: string } }[] };
const deltas = (events: (Record<string, unknown> | "[DONE]")[]) =>
  events.flatMap((e) => (e === "[DONE]" ? [] : ((e.choices as { delta: Delta }[])?.map((c) => c.delta) ?? [])));

describe("fake LLM server", () => {
  it("lists models and ends in /v1", async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const res = await fetch(`${server.url}/models`);
    expect(((await res.json()) as { data: { id: string }[] }).data.map((m) => m.id)).toEqual(["m1", "m2"]);
  });

  it("streams text in several chunks with a final usage chunk and [DONE]", async () => {
    server.script({ text: "Hello streaming world", chunkSize: 5, usage: { promptTokens: 10, completionTokens: 4, cachedTokens: 3 } });
    const events = await sse(await chat({ stream: true, stream_options: { include_usage: true } }));
    expect(events.at(-1)).toBe("[DONE]");
    const text = deltas(events).map((d) => d.content ?? "").join("");
    expect(text).toBe("Hello streaming world");
    expect(deltas(events).filter((d) => d.content).length).toBeGreaterThan(3);
    const usage = events.at(-2) as { usage: Record<string, unknown>; choices: unknown[] };
    expect(usage.choices).toEqual([]);
    expect(usage.usage).toMatchObject({ prompt_tokens: 10, completion_tokens: 4, prompt_tokens_details: { cached_tokens: 3 } });
  });

  it("streams reasoning and tool-call arguments", async () => {
    server.script({ reasoning: "think", toolCalls: [{ id: "c1", name: "read", arguments: { path: "a.ts" } }] });
    const events = await sse(await chat({ stream: true }));
    const ds = deltas(events);
    expect(ds.map((d) => d.reasoning_content ?? "").join("")).toBe("think");
    const args = ds.flatMap((d) => d.tool_calls ?? []).map((t) => t.function.arguments).join("");
    expect(JSON.parse(args)).toEqual({ path: "a.ts" });
    const finish = events.find((e) => e !== "[DONE]" && (e.choices as { finish_reason: string }[])[0]?.finish_reason);
    expect((finish as { choices: { finish_reason: string }[] }).choices[0]?.finish_reason).toBe("tool_calls");
  });

  it("answers non-streamed requests with one JSON body", async () => {
    server.script({ text: "plain", reasoning: "r" });
    const body = (await (await chat({ stream: false })).json()) as {
      choices: { message: { content: string; reasoning_content: string }; finish_reason: string }[];
      usage: { prompt_tokens: number };
    };
    expect(body.choices[0]?.message).toMatchObject({ content: "plain", reasoning_content: "r" });
    expect(body.choices[0]?.finish_reason).toBe("stop");
    expect(body.usage.prompt_tokens).toBeGreaterThan(0);
  });

  it("records requests with messages, tools, max_tokens and reasoning_effort", async () => {
    await (
      await chat({
        stream: false,
        max_tokens: 77,
        reasoning_effort: "high",
        tools: [{ type: "function", function: { name: "read" } }],
        messages: [
          { role: "system", content: "sys" },
          { role: "user", content: "question" },
        ],
      })
    ).text();
    const [req] = server.requests;
    expect(req).toMatchObject({ maxTokens: 77, reasoningEffort: "high", system: "sys", lastUserText: "question", stream: false });
    expect(req?.tools).toHaveLength(1);
  });

  it("sends HTTP errors with an OpenAI error body and headers", async () => {
    server.script({ kind: "error", status: 429, message: "Rate limit reached", code: "rate_limit_exceeded", headers: { "retry-after": "2" } });
    const res = await chat({ stream: true });
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("2");
    expect(await res.json()).toEqual({ error: { message: "Rate limit reached", type: "fake_error", code: "rate_limit_exceeded" } });
  });

  it("uses responders, then the configurable default", async () => {
    server.script((req) => ({ text: `you said ${req.lastUserText}` }));
    server.setDefault({ text: "default!" });
    const first = (await (await chat({ stream: false })).json()) as { choices: { message: { content: string } }[] };
    const second = (await (await chat({ stream: false })).json()) as { choices: { message: { content: string } }[] };
    expect(first.choices[0]?.message.content).toBe("you said hi");
    expect(second.choices[0]?.message.content).toBe("default!");
  });

  it("echoes by default", async () => {
    const body = (await (await chat({ stream: false })).json()) as { choices: { message: { content: string } }[] };
    expect(body.choices[0]?.message.content).toBe("Echo: hi");
  });

  it("fails mid-stream by closing the socket", async () => {
    server.script({ text: "a".repeat(80), chunkSize: 8, failAfterChunks: 3 });
    const res = await chat({ stream: true });
    await expect(res.text()).rejects.toThrow();
  });

  it("can send garbage and can hang until the client aborts", async () => {
    server.script({ kind: "garbage" }, { kind: "hang" });
    const garbage = await chat({ stream: false });
    expect(await garbage.text()).toContain("not json");
    const controller = new AbortController();
    const pending = chat({ stream: true }, { signal: controller.signal });
    await waitFor(() => server.requests.length === 2);
    controller.abort();
    await expect(pending).rejects.toThrow();
    await waitFor(() => server.requests[1]?.clientClosed === true);
  });

  it("can be scripted over HTTP control routes", async () => {
    await fetch(`http://127.0.0.1:${server.port}/_fake/script`, {
      method: "POST",
      body: JSON.stringify([{ text: "from control" }]),
    });
    const body = (await (await chat({ stream: false })).json()) as { choices: { message: { content: string } }[] };
    expect(body.choices[0]?.message.content).toBe("from control");
    const recorded = (await (await fetch(`http://127.0.0.1:${server.port}/_fake/requests`)).json()) as unknown[];
    expect(recorded).toHaveLength(1);
  });
});
