/**
 * The agent's model ports over the real provider registry, talking to the fake
 * OpenAI-compatible server through @ai-sdk/openai-compatible.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type FakeLlmServer, startFakeLlmServer } from "@/test/fake-llm-server";
import { createAgentModel, createModelResolver, resolveAgentModel, withCompactionModel } from "./agent-adapter";
import { createProviderRegistry, type ProviderRegistry } from "./providers";

let fake: FakeLlmServer;
let registry: ProviderRegistry;
beforeAll(async () => {
  fake = await startFakeLlmServer({ models: ["small", "large"] });
  registry = createProviderRegistry({
    compatible: { baseURL: fake.url, models: [{ id: "small", contextWindow: 8192 }, { id: "large", contextWindow: 64000 }] },
  });
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const user = (text: string) => ({ role: "user" as const, content: [{ type: "text" as const, text }], timestamp: 1 });

describe("createAgentModel", () => {
  it("streams an assistant message, sending the system prompt and the tools, and returns tool calls unexecuted", async () => {
    fake.script({ text: "Let me look", toolCalls: [{ name: "read", arguments: { path: "a.txt" } }] });
    const model = resolveAgentModel("openai-compatible/small", { registry });
    expect(model.info).toMatchObject({ ref: "openai-compatible/small", contextWindow: 8192 });
    const deltas: string[] = [];
    const message = await model.stream({
      system: "Be brief",
      messages: [user("read a.txt")],
      tools: [{ name: "read", description: "Read a file", inputSchema: { type: "object", properties: { path: { type: "string" } } } }],
      onDelta: (d) => {
        if (d.type === "text-delta") deltas.push(d.delta);
      },
    });
    expect(message.stopReason).toBe("toolUse");
    expect(message.content).toEqual([
      { type: "text", text: "Let me look" },
      { type: "toolCall", id: expect.any(String), name: "read", arguments: { path: "a.txt" } },
    ]);
    expect(deltas.join("")).toBe("Let me look");
    const req = fake.requests[0]!;
    expect(req.system).toBe("Be brief");
    expect(req.model).toBe("small");
    expect((req.tools as { function: { name: string; parameters: unknown } }[])[0]?.function).toMatchObject({
      name: "read",
      parameters: { type: "object", properties: { path: { type: "string" } } },
    });
  });

  it("never throws: a provider error is an assistant message with stopReason error", async () => {
    fake.script({ kind: "error", status: 500, message: "boom" });
    const message = await resolveAgentModel("openai-compatible/small", { registry }).stream({ messages: [user("hi")] });
    expect(message.stopReason).toBe("error");
    expect(message.errorMessage).toContain("500");
  });

  it("summarizer streams the summary text", async () => {
    fake.script({ text: "The summary" });
    const chunks: string[] = [];
    const summarize = resolveAgentModel("openai-compatible/small", { registry }).summarizer({ onText: (_k, d) => chunks.push(d) });
    const res = await summarize({ kind: "history", systemPrompt: "Summarize", prompt: "<conversation>x</conversation>", maxTokens: 100 });
    expect(res).toMatchObject({ stopReason: "stop", text: "The summary" });
    expect(chunks.join("")).toBe("The summary");
  });
});

describe("withCompactionModel", () => {
  it("chats with the chat model and summarizes with the compaction model", async () => {
    const chat = createAgentModel(registry.resolveModel("openai-compatible/small"));
    const compaction = createAgentModel(registry.resolveModel("openai-compatible/large"));
    const both = withCompactionModel(chat, compaction);
    expect(both.info).toBe(chat.info);
    fake.script({ text: "chat" }, { text: "summary" });
    await both.stream({ messages: [user("hi")] });
    await both.summarizer()({ kind: "short", systemPrompt: "s", prompt: "p", maxTokens: 10 });
    expect(fake.requests.map((r) => r.model)).toEqual(["small", "large"]);
    expect(withCompactionModel(chat, chat)).toBe(chat);

    const keyless = createAgentModel(registry.resolveModel("anthropic/claude-sonnet-4-5", { fallback: false }));
    expect(withCompactionModel(chat, keyless).hasApiKey).toBe(false);
  });
});

describe("createModelResolver", () => {
  it("resolves configured refs only, and lists every available model", async () => {
    const resolver = createModelResolver({ registry });
    expect((await resolver.resolve("openai-compatible/large"))?.info.contextWindow).toBe(64000);
    expect(await resolver.resolve("anthropic/claude-sonnet-4-5")).toBeUndefined();
    expect(await resolver.resolve("not-a-ref")).toBeUndefined();
    const refs = (await resolver.listAvailable()).map((m) => m.info.ref);
    expect(refs).toEqual(["openai-compatible/small", "openai-compatible/large", "offline/offline"]);
  });
});
