/**
 * The provider registry (conventions rule 6), model metadata, and reasoning plans (session-engine.md §6.3).
 * Registries are built from explicit config; the compatible one points at the fake server.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { user } from "@/test/compaction-helpers";
import { describeModel, FALLBACK_CONTEXT_WINDOW, lookupKnownModel } from "@/lib/llm/models";
import { parseModelRef } from "@/lib/session/model-ref";
import { createProviderRegistry, MAX_MODEL_OBJECTS, registryConfigFromEnv } from "@/lib/llm/providers";
import { planReasoning } from "@/lib/llm/reasoning";
import { streamAssistant } from "@/lib/llm/stream-assistant";
import { type FakeLlmServer, startFakeLlmServer } from "@/test/fake-llm-server";

let server: FakeLlmServer;
beforeAll(async () => {
  server = await startFakeLlmServer({ models: ["served-a", "served-b"] });
});
afterAll(() => server.close());

describe("model metadata", () => {
  it("knows common windows and matches dated ids", () => {
    expect(describeModel("openai", "gpt-4o").contextWindow).toBe(128_000);
    expect(describeModel("openai", "gpt-4.1").contextWindow).toBe(1_047_576);
    expect(describeModel("openai", "o3").contextWindow).toBe(200_000);
    expect(describeModel("openai", "o4-mini").reasoning).toBe(true);
    expect(describeModel("openai", "gpt-5").contextWindow).toBe(400_000);
    expect(describeModel("openai", "gpt-4o-2024-08-06").label).toBe("GPT-4o");
    expect(describeModel("openai", "gpt-4o-mini-2024-07-18").label).toBe("GPT-4o mini");
    expect(describeModel("anthropic", "claude-sonnet-4-5-20250929")).toMatchObject({ contextWindow: 200_000, maxOutputTokens: 64_000, reasoning: true });
    expect(describeModel("anthropic", "claude-opus-4-20250514").maxOutputTokens).toBe(32_000);
    expect(lookupKnownModel("openai-compatible", "openai/gpt-4o")?.contextWindow).toBe(128_000);
  });

  it("falls back to 128000 (session-engine.md §15) and applies overrides, explicit last", () => {
    expect(describeModel("openai-compatible", "llama3").contextWindow).toBe(FALLBACK_CONTEXT_WINDOW);
    expect(describeModel("openai-compatible", "llama3", { contextWindow: 8192 }).contextWindow).toBe(8192);
    expect(describeModel("openai-compatible", "llama3", { contextWindow: 8192 }, { contextWindow: 4096 }).contextWindow).toBe(4096);
    expect(describeModel("openai-compatible", "qwen3:8b").reasoning).toBe(true);
    expect(describeModel("openai-compatible", "llama3").reasoning).toBe(false);
  });

  it("parses refs at the first slash", () => {
    expect(parseModelRef("openai-compatible/meta/llama-3")).toEqual({ provider: "openai-compatible", id: "meta/llama-3" });
    expect(parseModelRef("nope")).toBeUndefined();
    expect(parseModelRef("/x")).toBeUndefined();
  });
});

describe("provider registry", () => {
  it("with nothing configured lists and resolves only the offline model", () => {
    const registry = createProviderRegistry({});
    expect(registry.listModels()).toEqual([expect.objectContaining({ ref: "offline/offline", label: "Offline model", offline: true })]);
    expect(registry.getDefaultModelRef()).toBe("offline/offline");
    const resolved = registry.resolveModel("anthropic/claude-sonnet-4-5");
    expect(resolved.info.provider).toBe("offline");
    expect(resolved.hasApiKey).toBe(true);
  });

  it("lists configured providers first and the offline model last", () => {
    const registry = createProviderRegistry({
      openai: { apiKey: "sk-test" },
      anthropic: { apiKey: "sk-ant-test" },
      compatible: { baseURL: server.url, models: ["local"] },
    });
    const refs = registry.listModels().map((m) => m.ref);
    expect(refs[0]).toBe("openai/gpt-5");
    expect(refs).toContain("anthropic/claude-sonnet-4-5");
    expect(refs).toContain("openai-compatible/local");
    expect(refs.at(-1)).toBe("offline/offline");
    expect(registry.resolveModel("anthropic/claude-sonnet-4-5-20250929").info).toMatchObject({ provider: "anthropic", contextWindow: 200_000 });
  });

  it("resolves unknown or unconfigured refs to the first configured model, or reports the missing key", () => {
    const registry = createProviderRegistry({ compatible: { baseURL: server.url, models: ["local"], contextWindow: 8192 } });
    expect(registry.resolveModel().info.ref).toBe("openai-compatible/local");
    expect(registry.resolveModel("garbage").info.ref).toBe("openai-compatible/local");
    expect(registry.resolveModel("anthropic/claude-sonnet-4-5").info.ref).toBe("openai-compatible/local");
    const strict = registry.resolveModel("anthropic/claude-sonnet-4-5", { fallback: false });
    expect(strict).toMatchObject({ hasApiKey: false, info: { provider: "anthropic", id: "claude-sonnet-4-5", contextWindow: 200_000 } });
    expect(registry.resolveModel("openai-compatible/other").info).toMatchObject({ id: "other", contextWindow: 8192 });
    expect(registry.resolveModel("openai-compatible/local", { contextWindow: 2048 }).info.contextWindow).toBe(2048);
  });

  it("discovers compatible models from GET /models when none are configured", async () => {
    const registry = createProviderRegistry({ compatible: { baseURL: `${server.url}/` } });
    expect(registry.getDefaultModelRef()).toBe("openai-compatible/default");
    await registry.ensureModels();
    expect(registry.listModels().map((m) => m.ref)).toEqual(["openai-compatible/served-a", "openai-compatible/served-b", "offline/offline"]);
  });

  it("drives the real openai-compatible provider with the api key", async () => {
    const registry = createProviderRegistry({ compatible: { baseURL: server.url, apiKey: "local-key", models: ["local"] } });
    server.script({ text: "pong" });
    const msg = await streamAssistant({ model: registry.resolveModel(), messages: [user("ping")] });
    expect(msg.content).toEqual([{ type: "text", text: "pong" }]);
    expect(server.requests.at(-1)?.headers.authorization).toBe("Bearer local-key");
    expect(server.requests.at(-1)?.model).toBe("local");
  });

  it("hands out one provider model object per model, and keeps at most MAX_MODEL_OBJECTS", async () => {
    const registry = createProviderRegistry({ compatible: { baseURL: server.url, models: ["local"] } });
    const model = registry.resolveModel("openai-compatible/local").model;
    expect(registry.resolveModel("openai-compatible/local").model).toBe(model);
    expect(registry.resolveModel("openai-compatible/other").model).not.toBe(model);
    for (let i = 0; i < MAX_MODEL_OBJECTS; i++) registry.resolveModel(`openai-compatible/id-${i}`);
    // The oldest was let go; a new object for it still works, and a reused one still streams.
    expect(registry.resolveModel("openai-compatible/local").model).not.toBe(model);
    const again = registry.resolveModel("openai-compatible/local");
    server.script({ text: "one" }, { text: "two" });
    expect((await streamAssistant({ model: again, messages: [user("a")] })).content).toEqual([{ type: "text", text: "one" }]);
    expect((await streamAssistant({ model: registry.resolveModel("openai-compatible/local"), messages: [user("b")] })).content).toEqual([{ type: "text", text: "two" }]);
  });

  it("reads its config from the validated env", () => {
    expect(
      registryConfigFromEnv({
        NODE_ENV: "test",
        ARBOR_OPENAI_BASE_URL: "http://localhost:11434/v1",
        ARBOR_OPENAI_MODELS: "qwen3:8b, llama3 ,",
        ARBOR_OPENAI_CONTEXT_WINDOW: 32768,
        ANTHROPIC_API_KEY: "k",
      }),
    ).toEqual({
      anthropic: { apiKey: "k" },
      compatible: { baseURL: "http://localhost:11434/v1", apiKey: undefined, models: ["qwen3:8b", "llama3"], contextWindow: 32768 },
    });
  });
});

describe("reasoning plans (session-engine.md §6.3)", () => {
  const anthropic = (id: string, maxOutputTokens?: number) => ({ ...describeModel("anthropic", id), ...(maxOutputTokens ? { maxOutputTokens } : {}) });

  it("Anthropic: a 16384 budget on top of maxTokens, within the output limit", () => {
    expect(planReasoning(anthropic("claude-sonnet-4-5"), "high", 13107)).toEqual({
      maxOutputTokens: 13107,
      thinkingBudget: 16384,
      providerOptions: { anthropic: { thinking: { type: "enabled", budgetTokens: 16384 } } },
      applied: true,
    });
    const capped = planReasoning(anthropic("claude-opus-4"), "high", 20000);
    expect(capped).toMatchObject({ maxOutputTokens: 32000 - 16384, thinkingBudget: 16384 });
    const tight = planReasoning(anthropic("claude-sonnet-4-5", 8192), "high", 512);
    expect(tight).toMatchObject({ maxOutputTokens: 1024, thinkingBudget: 7168 });
    expect(planReasoning(anthropic("claude-sonnet-4-5", 1500), "high", 512)).toEqual({ maxOutputTokens: 512, applied: false });
  });

  it("OpenAI and compatible: reasoningEffort; non-reasoning models: nothing", () => {
    expect(planReasoning(describeModel("openai", "o3"), "high", 100).providerOptions).toEqual({ openai: { reasoningEffort: "high" } });
    expect(planReasoning(describeModel("openai-compatible", "x", { reasoning: true }), "high", 100).providerOptions).toEqual({
      openaiCompatible: { reasoningEffort: "high" },
    });
    expect(planReasoning(describeModel("openai", "gpt-4o"), "high", 100)).toEqual({ maxOutputTokens: 100, applied: false });
    expect(planReasoning(describeModel("offline", "offline"), "high", 100).applied).toBe(false);
  });
});
