/**
 * The request a model call sends, through the REAL providers (openai-compatible, openai,
 * anthropic) to a capturing HTTP server: Arbor's own path (streamAssistant → the provider's
 * doStream with the incrementally built prompt) sends exactly the body and headers that the AI
 * SDK's `streamText` sent for the same history (the path Arbor used before), for a history with
 * a compaction summary, an image, thinking with a signature, tool calls, tool results out of
 * order (one with an image, one an error) and the tool definitions. The prompt handed to the
 * provider is deep-frozen first, so a provider that mutated the shared, cached prompt would fail.
 */
import { jsonSchema, type ModelMessage, streamText, tool } from "ai";
import { describe, expect, it } from "vitest";
import { loadPrompts } from "@/lib/llm/prompts";
import { toProviderPrompt } from "@/lib/llm/provider-prompt";
import { bytesBodyFetch, createProviderRegistry, type ResolvedModel } from "@/lib/llm/providers";
import { mergeProviderOptions, planReasoning } from "@/lib/llm/reasoning";
import { streamAssistant } from "@/lib/llm/stream-assistant";
import { convertToLlm } from "@/lib/session/file/convert";
import type { AssistantMessage, LlmMessage } from "@/lib/session/types";
import { type Captured, useCaptureServer } from "@/test/capture-server";

const cap = useCaptureServer();

// A 1×1 PNG.
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
const T = 1_700_000_000_000;
const SYSTEM = "You are Arbor's test assistant.";
const TOOLS = [
  { name: "bash", description: "Run a command", inputSchema: { type: "object", properties: { command: { type: "string" } }, required: ["command"] } },
  { name: "screenshot", description: "Take a screenshot", inputSchema: { type: "object", properties: {} } },
];

const usage = { input: 10, output: 10, cacheRead: 0, cacheWrite: 0, totalTokens: 20 };
const thinker: AssistantMessage = {
  role: "assistant",
  content: [
    { type: "thinking", thinking: "I should look at the screen and run the build.", thinkingSignature: "sig-abc" },
    { type: "text", text: "Let me check." },
    { type: "toolCall", id: "call_a", name: "bash", arguments: { command: "npm run build" } },
    { type: "toolCall", id: "call_b", name: "screenshot", arguments: {} },
  ],
  provider: "anthropic",
  model: "claude-sonnet-4-5",
  usage,
  stopReason: "toolUse",
  timestamp: T + 2,
};

/** The history as the agent hands it over: convertToLlm of the working context. */
function history(): LlmMessage[] {
  return convertToLlm(
    [
      { role: "compactionSummary", summary: "We fixed the parser and kept the tests green.", tokensBefore: 5000, timestamp: T },
      {
        role: "user",
        content: [
          { type: "text", text: "What is in this picture?" },
          { type: "image", data: PNG, mimeType: "image/png" },
        ],
        timestamp: T + 1,
      },
      thinker,
      { role: "toolResult", toolCallId: "call_b", toolName: "screenshot", content: [{ type: "text", text: "SCREEN-OUTPUT" }, { type: "image", data: PNG, mimeType: "image/png" }], isError: false, timestamp: T + 3 },
      { role: "toolResult", toolCallId: "call_a", toolName: "bash", content: [{ type: "text", text: "exit 1" }], isError: true, timestamp: T + 4 },
      { role: "assistant", content: [{ type: "text", text: "The build fails." }], provider: "openai-compatible", model: "m", usage, stopReason: "stop", timestamp: T + 5 },
      { role: "user", content: "Thanks, now fix it.", timestamp: T + 6 },
    ],
    loadPrompts(),
  );
}

/** The same history as the AI SDK messages Arbor's former hand-off gave streamText. */
function sdkMessages(llm: LlmMessage[]): ModelMessage[] {
  const summary = llm[0]?.role === "user" ? llm[0].content : "";
  return [
    { role: "user", content: typeof summary === "string" ? summary : summary.map((b) => ({ type: "text", text: b.type === "text" ? b.text : "" })) },
    {
      role: "user",
      content: [
        { type: "text", text: "What is in this picture?" },
        { type: "image", image: PNG, mediaType: "image/png" },
      ],
    },
    {
      role: "assistant",
      content: [
        // The message came from Anthropic, so its signature goes along (whatever the target).
        { type: "reasoning", text: "I should look at the screen and run the build.", providerOptions: { anthropic: { signature: "sig-abc" } } },
        { type: "text", text: "Let me check." },
        { type: "tool-call", toolCallId: "call_a", toolName: "bash", input: { command: "npm run build" } },
        { type: "tool-call", toolCallId: "call_b", toolName: "screenshot", input: {} },
      ],
    },
    {
      role: "tool",
      content: [
        { type: "tool-result", toolCallId: "call_a", toolName: "bash", output: { type: "error-text", value: "exit 1" } },
        {
          type: "tool-result",
          toolCallId: "call_b",
          toolName: "screenshot",
          output: {
            type: "content",
            value: [
              { type: "text", text: "SCREEN-OUTPUT" },
              { type: "image-data", data: PNG, mediaType: "image/png" },
            ],
          },
        },
      ],
    },
    { role: "assistant", content: [{ type: "text", text: "The build fails." }] },
    { role: "user", content: "Thanks, now fix it." },
  ];
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

const MAX_TOKENS = 4096;

async function viaStreamText(model: ResolvedModel, messages: ModelMessage[]): Promise<string | undefined> {
  const plan = planReasoning(model.info, "high", MAX_TOKENS);
  const tools = Object.fromEntries(TOOLS.map((d) => [d.name, tool({ description: d.description, inputSchema: jsonSchema(d.inputSchema as never) })]));
  let failure: string | undefined;
  const result = streamText({
    model: model.model,
    system: SYSTEM,
    messages,
    tools,
    maxOutputTokens: plan.maxOutputTokens,
    providerOptions: mergeProviderOptions(plan.providerOptions),
    maxRetries: 0,
    onError: ({ error }) => {
      failure = String(error);
    },
  });
  for await (const _ of result.fullStream) {
    // drained
  }
  return failure;
}

const providers = [
  { name: "openai-compatible", ref: "openai-compatible/m", config: () => ({ compatible: { baseURL: cap.base, models: ["m"], apiKey: "k" } }) },
  { name: "openai", ref: "openai/gpt-5", config: () => ({ openai: { apiKey: "k", baseURL: cap.base } }) },
  { name: "anthropic", ref: "anthropic/claude-sonnet-4-5", config: () => ({ anthropic: { apiKey: "k", baseURL: cap.base } }) },
];

describe("the request a model call sends", () => {
  for (const p of providers) {
    it(`${p.name}: the same body and headers as streamText sent for the same history`, async () => {
      const model = createProviderRegistry(p.config()).resolveModel(p.ref, { fallback: false });
      expect(model.info.provider).toBe(p.name);
      const llm = history();

      await viaStreamText(model, sdkMessages(llm));
      deepFreeze(toProviderPrompt(SYSTEM, llm));
      const message = await streamAssistant({ model, system: SYSTEM, messages: llm, tools: TOOLS, maxOutputTokens: MAX_TOKENS, reasoning: "high" });

      expect(cap.captured, JSON.stringify(message)).toHaveLength(2);
      const [before, after] = cap.captured as [Captured, Captured];
      expect(after.url).toBe(before.url);
      expect(JSON.parse(after.body)).toEqual(JSON.parse(before.body));
      expect(after.body.length).toBe(before.body.length);
      const { "content-length": _a, ...afterHeaders } = after.headers;
      const { "content-length": _b, ...beforeHeaders } = before.headers;
      expect(afterHeaders).toEqual(beforeHeaders);
      expect(message.stopReason).toBe("error");
      expect(message.errorMessage).toMatch(/^400 Bad Request: captured/);
      // What it sent, in the provider's own words: the image, both results in call order, the tools.
      expect(after.body).toContain(PNG);
      expect(after.body.indexOf("exit 1")).toBeLessThan(after.body.indexOf("SCREEN-OUTPUT"));
      expect(after.body).toContain("Take a screenshot");
      expect(after.body).toContain("We fixed the parser");
    });
  }

  it("the providers' fetch sends a string body as the same bytes and headers plain fetch does, lone surrogates included", async () => {
    // (JSON.stringify escapes lone surrogates, so a provider body never has one; a raw string may.)
    const body = `${JSON.stringify({ text: "é 😀" })} a\ud800b \udc00`;
    const init = { method: "POST", headers: { "content-type": "application/json" }, body };
    await fetch(`${cap.base}/x`, init);
    await bytesBodyFetch()(`${cap.base}/x`, init);
    const [plain, bytes] = cap.captured as [Captured, Captured];
    expect(bytes.body).toBe(plain.body);
    expect(bytes.headers).toEqual(plain.headers);
    expect(plain.body).toContain("\ufffd");
  });
});
