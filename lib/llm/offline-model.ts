/**
 * Arbor's built-in offline model: our own LanguageModelV3 (provider "offline", model "offline",
 * label "Offline model"), used whenever no provider is configured (conventions rule 6). It is a
 * real product feature, not a test mock.
 *
 * Contract:
 * - Chat turns get a fixed reply saying that no model is configured and which environment
 *   variables configure one. It never calls tools.
 * - Summarization calls get an extractive summary (offline-summary.ts). A call is a summarization
 *   call when `providerOptions.offline.kind` names a SummarizeRequest kind (lib/llm/summarizer.ts
 *   sets it), or when the system prompt talks about summarizing and the prompt carries a
 *   `<conversation>` block (the kind is then inferred from the requested headings).
 * - Deterministic. doStream emits the text in chunks with a small delay, like a real model;
 *   usage is estimated as characters / 4 (session-engine.md §4). An abort signal stops the stream with an
 *   AbortError, which lib/llm/stream-assistant.ts reports as an abort.
 */
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
  LanguageModelV3StreamResult,
  LanguageModelV3Usage,
} from "@ai-sdk/provider";
import { OFFLINE_MODEL_ID, OFFLINE_PROVIDER } from "@/lib/llm/models";
import { inferSummaryKind, type SummaryKind } from "@/lib/llm/offline-prompt";
import { extractiveSummary } from "@/lib/llm/offline-summary";

export const OFFLINE_CHAT_REPLY = [
  "No language model is configured, so this reply comes from Arbor's built-in offline model.",
  "",
  "To chat with a real model, set one of these environment variables and restart Arbor:",
  "- `OPENAI_API_KEY` for OpenAI models",
  "- `ANTHROPIC_API_KEY` for Anthropic models",
  "- `ARBOR_OPENAI_BASE_URL` for an OpenAI-compatible server (Ollama, llama.cpp, vLLM, LM Studio), optionally with `ARBOR_OPENAI_API_KEY` and `ARBOR_OPENAI_MODELS`",
  "",
  "Browsing, compaction and branch summaries still work offline: summaries are extracted from the conversation.",
].join("\n");

export interface OfflineModelOptions {
  /** Pause between streamed chunks (default 10 ms). */
  chunkDelayMs?: number;
  /** Approximate characters per streamed chunk (default 24 for chat, 96 for summaries). */
  chunkChars?: number;
}

const KINDS: ReadonlySet<string> = new Set<SummaryKind>(["history", "turnPrefix", "short", "branch"]);
const SUMMARY_MAX_CHARS = 6000;

function abortError(): DOMException {
  return new DOMException("The operation was aborted.", "AbortError");
}

function promptTexts(options: LanguageModelV3CallOptions): { system: string; lastUser: string; chars: number } {
  let system = "";
  let lastUser = "";
  let chars = 0;
  for (const message of options.prompt) {
    if (message.role === "system") {
      system += message.content;
      chars += message.content.length;
      continue;
    }
    let text = "";
    for (const part of message.content) {
      if (part.type === "text" || part.type === "reasoning") text += part.text;
      else if (part.type === "tool-call") text += JSON.stringify(part.input);
      else if (part.type === "tool-result" && (part.output.type === "text" || part.output.type === "error-text")) text += part.output.value;
    }
    chars += text.length;
    if (message.role === "user") lastUser = text;
  }
  return { system, lastUser, chars };
}

/** The SummarizeRequest kind of a call, or undefined for a chat turn. */
export function offlineSummaryKind(options: LanguageModelV3CallOptions): SummaryKind | undefined {
  const declared = options.providerOptions?.offline?.kind;
  if (typeof declared === "string" && KINDS.has(declared)) return declared as SummaryKind;
  const { system, lastUser } = promptTexts(options);
  if (/summari[sz]/i.test(system) && lastUser.includes("<conversation>")) return inferSummaryKind(lastUser);
  return undefined;
}

function reply(options: LanguageModelV3CallOptions): { text: string; summary: boolean; usage: LanguageModelV3Usage } {
  const { lastUser, chars } = promptTexts(options);
  const kind = offlineSummaryKind(options);
  const maxChars = Math.min(SUMMARY_MAX_CHARS, (options.maxOutputTokens ?? Number.POSITIVE_INFINITY) * 4);
  const text = kind ? extractiveSummary(lastUser, { kind, maxChars }) : OFFLINE_CHAT_REPLY;
  const input = Math.ceil(chars / 4);
  const output = Math.ceil(text.length / 4);
  return {
    text,
    summary: kind !== undefined,
    usage: {
      inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
      outputTokens: { total: output, text: output, reasoning: 0 },
    },
  };
}

/** Cuts text into chunks of about `size` characters, at whitespace. */
function chunk(text: string, size: number): string[] {
  const out: string[] = [];
  let current = "";
  for (const word of text.match(/\S+\s*|\s+/g) ?? []) {
    current += word;
    if (current.length >= size) {
      out.push(current);
      current = "";
    }
  }
  if (current) out.push(current);
  return out;
}

function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError());
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

export function createOfflineModel(options: OfflineModelOptions = {}): LanguageModelV3 {
  const delay = options.chunkDelayMs ?? 10;
  return {
    specificationVersion: "v3",
    provider: OFFLINE_PROVIDER,
    modelId: OFFLINE_MODEL_ID,
    supportedUrls: {},

    async doGenerate(call): Promise<LanguageModelV3GenerateResult> {
      if (call.abortSignal?.aborted) throw abortError();
      const { text, usage } = reply(call);
      return {
        content: [{ type: "text", text }],
        finishReason: { unified: "stop", raw: "stop" },
        usage,
        warnings: [],
        response: { modelId: OFFLINE_MODEL_ID, timestamp: new Date(0) },
      };
    },

    async doStream(call): Promise<LanguageModelV3StreamResult> {
      const signal = call.abortSignal;
      if (signal?.aborted) throw abortError();
      const { text, summary, usage } = reply(call);
      const parts: LanguageModelV3StreamPart[] = [
        { type: "stream-start", warnings: [] },
        { type: "response-metadata", modelId: OFFLINE_MODEL_ID, timestamp: new Date(0) },
        { type: "text-start", id: "offline-text" },
        ...chunk(text, options.chunkChars ?? (summary ? 96 : 24)).map(
          (delta): LanguageModelV3StreamPart => ({ type: "text-delta", id: "offline-text", delta }),
        ),
        { type: "text-end", id: "offline-text" },
        { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage },
      ];
      let index = 0;
      const stream = new ReadableStream<LanguageModelV3StreamPart>({
        async pull(controller) {
          try {
            const part = parts[index];
            if (part?.type === "text-delta" && index > 3 && delay > 0) await wait(delay, signal);
            if (signal?.aborted) throw abortError();
            index++;
            if (part) controller.enqueue(part);
            if (index >= parts.length) controller.close();
          } catch (err) {
            controller.error(err);
          }
        },
      });
      return { stream };
    },
  };
}
