/**
 * The OpenAI-compatible body with its message list spliced in (lib/llm/spliced-prompt.ts) is byte
 * for byte the body of the unwrapped provider, for the hand-made history of
 * provider-request.test.ts's kind (image, thinking, tool calls and results, an error) and for
 * seeded generated sessions, on a first call and on the next call that reuses the kept texts.
 * Both go through the real provider to a capturing HTTP server.
 */
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { describe, expect, it } from "vitest";
import { loadPrompts } from "@/lib/llm/prompts";
import { COMPATIBLE_PROVIDER } from "@/lib/llm/models";
import { bytesBodyFetch, createProviderRegistry, type ResolvedModel } from "@/lib/llm/providers";
import { splicedPromptModel, splicePromptFetch } from "@/lib/llm/spliced-prompt";
import { uploadFetch } from "@/lib/llm/upload-fetch";
import { streamAssistant } from "@/lib/llm/stream-assistant";
import { buildSessionContext } from "@/lib/session/context";
import { convertToLlm } from "@/lib/session/file/convert";
import { generateSession } from "@/test/generators/session";
import type { LlmMessage } from "@/lib/session/types";
import { type Captured, useCaptureServer } from "@/test/capture-server";

const cap = useCaptureServer();

const TOOLS = [{ name: "bash", description: "Run a command", inputSchema: { type: "object", properties: { command: { type: "string" } } } }];
const SYSTEM = "You are Arbor's test assistant.";

/** The registry's model (spliced) and the provider as createOpenAICompatible gives it, configured alike. */
function models(): { spliced: ResolvedModel; plain: ResolvedModel } {
  const spliced = createProviderRegistry({ compatible: { baseURL: cap.base, models: ["m"], apiKey: "k" } }).resolveModel("openai-compatible/m", { fallback: false });
  const provider = createOpenAICompatible({ name: COMPATIBLE_PROVIDER, baseURL: cap.base, apiKey: "k", includeUsage: true, fetch: bytesBodyFetch() });
  return { spliced, plain: { ...spliced, model: provider.chatModel("m") } };
}

/** The bodies and headers the two models send for the same call. */
async function bothBodies(messages: LlmMessage[]): Promise<[Captured, Captured]> {
  const { spliced, plain } = models();
  for (const model of [plain, spliced]) {
    const reply = await streamAssistant({ model, system: SYSTEM, messages, tools: TOOLS, maxOutputTokens: 1000, reasoning: "high" });
    expect(reply.errorMessage).toMatch(/captured/);
  }
  const [a, b] = cap.captured.splice(0) as [Captured, Captured];
  return [a, b];
}

function sessionMessages(seed: number, entries: number): LlmMessage[] {
  const { entries: list } = generateSession({ seed, entries, branches: 2, labels: 1, compactions: seed % 2 === 0 });
  const leaf = list.at(-1)?.id;
  return convertToLlm(buildSessionContext(list, leaf).messages, loadPrompts());
}

describe("the spliced OpenAI-compatible body", () => {
  it("equals the provider's own body, bytes and headers, for generated sessions, called twice", async () => {
    for (let seed = 1; seed <= 8; seed++) {
      const messages = sessionMessages(seed, 120 + seed * 40);
      expect(messages.some((m) => m.role === "toolResult")).toBe(true);
      // The second round reuses every message's kept text and adds one message.
      for (const history of [messages, [...messages, { role: "user" as const, content: `And now ${seed}?`, timestamp: 1 }]]) {
        const [plain, spliced] = await bothBodies(history);
        expect(spliced.body).toBe(plain.body);
        expect(spliced.headers).toEqual(plain.headers);
        expect(JSON.parse(spliced.body).messages.length).toBeGreaterThan(history.length / 2);
      }
    }
  });

  it("keeps non-ASCII text, images, thinking, errors and interrupted calls exact", async () => {
    const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
    const usage = { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2 };
    const messages: LlmMessage[] = [
      { role: "user", content: [{ type: "text", text: "Qu'y a-t-il ici ? é 😀 \u2028 \"quoted\" \\ back" }, { type: "image", data: png, mimeType: "image/png" }], timestamp: 1 },
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "look first", thinkingSignature: "sig" },
          { type: "text", text: "Running both." },
          { type: "toolCall", id: "c1", name: "bash", arguments: { command: "ls -la", nested: { n: 1.5, list: [true, null] } } },
          { type: "toolCall", id: "c2", name: "bash", arguments: {} },
        ],
        provider: "anthropic",
        model: "x",
        usage,
        stopReason: "toolUse",
        timestamp: 2,
      },
      { role: "toolResult", toolCallId: "c1", toolName: "bash", content: [{ type: "text", text: "out\n\ttabbed" }, { type: "image", data: png, mimeType: "image/png" }], isError: false, timestamp: 3 },
      { role: "toolResult", toolCallId: "zz", toolName: "bash", content: [{ type: "text", text: "stray" }], isError: true, timestamp: 4 },
      { role: "user", content: "go on", timestamp: 5 },
    ];
    const [plain, spliced] = await bothBodies(messages);
    expect(spliced.body).toBe(plain.body);
    expect(spliced.body).toContain("Tool call was interrupted");
    expect(spliced.body).toContain(png);
    expect(spliced.body).not.toContain("arbor-spliced-prompt");
  });

  it("streams a large body in blocks through node:http (as the registry sends it): the same bytes, and the same headers (its exact content-length, no chunked encoding)", async () => {
    const messages = sessionMessages(11, 3_000);
    const { spliced, plain } = models();
    const provider = createOpenAICompatible({ name: COMPATIBLE_PROVIDER, baseURL: cap.base, apiKey: "k", includeUsage: true, fetch: splicePromptFetch(bytesBodyFetch(uploadFetch()), 0) });
    const streamed: ResolvedModel = { ...spliced, model: splicedPromptModel(provider.chatModel("m")) };
    for (const model of [plain, streamed]) {
      const reply = await streamAssistant({ model, system: SYSTEM, messages, tools: TOOLS, maxOutputTokens: 1000, reasoning: "high" });
      expect(reply.errorMessage).toMatch(/captured/);
    }
    const [a, b] = cap.captured.splice(0) as [Captured, Captured];
    expect(a.body.length).toBeGreaterThan(600_000); // several 256 KB blocks
    expect(b.body).toBe(a.body);
    expect(b.headers).toEqual(a.headers);
    expect(b.headers["transfer-encoding"]).toBeUndefined();
  });

  it("refuses to send a placeholder whose call is not registered", async () => {
    const placeholder = JSON.stringify({ messages: [{ role: "user", content: "\u0000arbor-spliced-prompt-999999" }] });
    const sent = splicePromptFetch(fetch)(`${cap.base}/chat/completions`, { method: "POST", body: placeholder });
    await expect(sent).rejects.toThrow(/could not assemble the request/);
    expect(cap.captured).toHaveLength(0);
  });
});
