/**
 * The one function that runs a model call for a chat turn (and, through lib/llm/summarizer.ts,
 * for summaries): `streamText` from `ai`, folded into a spec §1.5 AssistantMessage.
 * Server-side.
 *
 * Contract:
 * - Never throws and never rejects: a provider failure gives `stopReason: "error"` with an
 *   `errorMessage` from formatModelError (status code and retry headers included, spec §13.5/§14);
 *   an aborted signal gives `stopReason: "aborted"` with the partial content so far.
 * - `maxRetries: 0`: Arbor retries turns itself (spec §13.5).
 * - One step only. Tool calls come back as toolCall blocks; the caller executes them (pass tools
 *   without `execute`, or their results are ignored here).
 * - Content blocks keep stream order: text, thinking and toolCall blocks as they started.
 * - usage: input = prompt tokens not read from cache, cacheRead = cached prompt tokens,
 *   cacheWrite = tokens written to the cache, totalTokens = their sum with output.
 * - ttft = ms from the call to the first streamed text/reasoning/tool-input delta;
 *   duration = ms to the end; timestamp = when the call started.
 * - `onDelta` forwards text-delta, reasoning-delta, tool-call and finish events so the chat route
 *   can stream UI parts; `startAssistantStream` also exposes the raw streamText result.
 * - Idle timeout: when the provider sends nothing for `idleTimeoutMs` (default 120 s; 0 turns it
 *   off) — no response headers, or a stream that stops mid-way without closing — the call is
 *   aborted and ends with `stopReason: "error"`, the content so far, and the errorMessage
 *   "The model stopped responding (no data for N s)". Without it a hung server would hold the
 *   session's run slot forever.
 */
import type { ProviderOptions } from "@ai-sdk/provider-utils";
import { type FinishReason, type LanguageModelUsage, streamText, type ToolSet } from "ai";
import { apiForProvider } from "@/lib/llm/models";
import { formatModelError } from "@/lib/llm/model-error";
import type { ResolvedModel } from "@/lib/llm/providers";
import { mergeProviderOptions, planReasoning, type ReasoningEffort } from "@/lib/llm/reasoning";
import { toModelMessages } from "@/lib/llm/to-model-messages";
import type { AssistantMessage, LlmMessage, StopReason, ThinkingContent, ToolCall, Usage } from "@/lib/session/types";

export type AssistantDelta =
  | { type: "text-delta"; delta: string; contentIndex: number }
  | { type: "reasoning-delta"; delta: string; contentIndex: number }
  | { type: "tool-call"; toolCall: ToolCall; contentIndex: number }
  | { type: "finish"; message: AssistantMessage };

export interface StreamAssistantOptions {
  model: ResolvedModel;
  system?: string;
  messages: LlmMessage[];
  tools?: ToolSet;
  maxOutputTokens?: number;
  /** Applied only when the model supports reasoning (lib/llm/reasoning.ts). */
  reasoning?: ReasoningEffort;
  providerOptions?: ProviderOptions;
  signal?: AbortSignal;
  /** Ends the call with an error after this long without data from the provider; 0 = never. */
  idleTimeoutMs?: number;
  onDelta?: (event: AssistantDelta) => void;
}

/** How long a model call may go without any data before it is ended (see the contract). */
export const DEFAULT_IDLE_TIMEOUT_MS = 120_000;

/** "The model stopped responding (no data for 120 s)". */
export function idleTimeoutMessage(ms: number): string {
  const seconds = Math.round(ms / 100) / 10;
  return `The model stopped responding (no data for ${seconds} s)`;
}

/** Aborts `controller` once `ms` pass without a `touch()`; `ms <= 0` never fires. */
function idleTimer(ms: number, controller: AbortController) {
  let fired = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const touch = () => {
    if (ms <= 0 || fired) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      fired = true;
      controller.abort(new DOMException(idleTimeoutMessage(ms), "TimeoutError"));
    }, ms);
    // A timer left behind by a call that failed early must not keep a CLI process alive.
    timer.unref?.();
  };
  touch();
  return { touch, fired: () => fired, clear: () => clearTimeout(timer) };
}

export type AssistantStreamResult = ReturnType<typeof streamText<ToolSet>>;

export interface AssistantStream {
  /** The raw streamText result (its streams are tee'd, so it can be consumed alongside). */
  result: AssistantStreamResult;
  message: Promise<AssistantMessage>;
}

export function mapUsage(usage: LanguageModelUsage | undefined): Usage {
  const details = usage?.inputTokenDetails;
  const cacheRead = details?.cacheReadTokens ?? usage?.cachedInputTokens ?? 0;
  const cacheWrite = details?.cacheWriteTokens ?? 0;
  const input = details?.noCacheTokens ?? Math.max(0, (usage?.inputTokens ?? 0) - cacheRead - cacheWrite);
  const output = usage?.outputTokens ?? 0;
  return { input, output, cacheRead, cacheWrite, totalTokens: input + output + cacheRead + cacheWrite };
}

export function mapFinishReason(reason: FinishReason | undefined): StopReason | undefined {
  switch (reason) {
    case "stop":
    case "other":
      return "stop";
    case "length":
      return "length";
    case "tool-calls":
      return "toolUse";
    case "error":
    case "content-filter":
      return "error";
    default:
      return undefined;
  }
}

function toArguments(input: unknown): Record<string, unknown> {
  let value = input;
  if (typeof value === "string") {
    try {
      value = JSON.parse(value);
    } catch {
      return {};
    }
  }
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function anthropicSignature(meta: unknown): string | undefined {
  const sig = (meta as { anthropic?: { signature?: unknown } } | undefined)?.anthropic?.signature;
  return typeof sig === "string" && sig ? sig : undefined;
}

export function startAssistantStream(opts: StreamAssistantOptions): AssistantStream {
  const { info, model } = opts.model;
  const start = Date.now();
  const plan = planReasoning(info, opts.reasoning, opts.maxOutputTokens);
  const idleMs = opts.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  const idleController = new AbortController();
  const idle = idleTimer(idleMs, idleController);
  const abortSignal = opts.signal ? AbortSignal.any([opts.signal, idleController.signal]) : idleController.signal;
  const result = streamText({
    model,
    system: opts.system,
    messages: toModelMessages(opts.messages),
    tools: opts.tools,
    maxOutputTokens: plan.maxOutputTokens,
    providerOptions: mergeProviderOptions(plan.providerOptions, opts.providerOptions),
    abortSignal,
    maxRetries: 0,
    // Errors are folded into the message below; the SDK's default handler would only log them.
    onError: () => {},
  });

  const message = (async (): Promise<AssistantMessage> => {
    const content: AssistantMessage["content"] = [];
    const open = new Map<string, number>();
    let firstDeltaAt: number | undefined;
    let finishReason: FinishReason | undefined;
    let usage: LanguageModelUsage | undefined;
    let error: unknown;
    let aborted = false;
    const emit = (event: AssistantDelta) => {
      try {
        opts.onDelta?.(event);
      } catch {
        // A failing listener must not break the turn.
      }
    };
    const seen = () => {
      firstDeltaAt ??= Date.now();
    };
    const block = (key: string, make: () => AssistantMessage["content"][number]) => {
      const existing = open.get(key);
      if (existing !== undefined) return existing;
      content.push(make());
      open.set(key, content.length - 1);
      return content.length - 1;
    };

    try {
      for await (const part of result.fullStream) {
        idle.touch();
        switch (part.type) {
          case "text-start":
            open.delete(`t:${part.id}`);
            block(`t:${part.id}`, () => ({ type: "text", text: "" }));
            break;
          case "text-delta": {
            if (!part.text) break;
            seen();
            const i = block(`t:${part.id}`, () => ({ type: "text", text: "" }));
            (content[i] as { text: string }).text += part.text;
            emit({ type: "text-delta", delta: part.text, contentIndex: i });
            break;
          }
          case "reasoning-start":
            open.delete(`r:${part.id}`);
            block(`r:${part.id}`, () => ({ type: "thinking", thinking: "" }));
            break;
          case "reasoning-delta":
          case "reasoning-end": {
            const i = block(`r:${part.id}`, () => ({ type: "thinking", thinking: "" }));
            const thinking = content[i] as ThinkingContent;
            const signature = anthropicSignature(part.providerMetadata);
            if (signature) thinking.thinkingSignature = signature;
            if (part.type === "reasoning-delta" && part.text) {
              seen();
              thinking.thinking += part.text;
              emit({ type: "reasoning-delta", delta: part.text, contentIndex: i });
            }
            break;
          }
          case "tool-input-start":
          case "tool-input-delta":
            seen();
            break;
          case "tool-call": {
            seen();
            const call: ToolCall = { type: "toolCall", id: part.toolCallId, name: part.toolName, arguments: toArguments(part.input) };
            content.push(call);
            emit({ type: "tool-call", toolCall: call, contentIndex: content.length - 1 });
            break;
          }
          case "finish-step":
            finishReason = part.finishReason;
            usage = part.usage;
            break;
          case "finish":
            finishReason = part.finishReason;
            usage = part.totalUsage ?? usage;
            break;
          case "error":
            error ??= part.error;
            break;
          case "abort":
            aborted = true;
            break;
          default:
            break;
        }
      }
    } catch (err) {
      error ??= err;
    } finally {
      idle.clear();
    }

    const kept = content.filter((b) => (b.type === "text" ? b.text !== "" : b.type === "thinking" ? b.thinking !== "" || !!b.thinkingSignature : true));
    const msg: AssistantMessage = {
      role: "assistant",
      content: kept,
      api: apiForProvider(info.provider),
      provider: info.provider,
      model: info.id,
      usage: mapUsage(usage),
      stopReason: "stop",
      timestamp: start,
    };
    // An abort that lands after the provider finished does not turn a complete answer into a partial one.
    if (idle.fired() && !opts.signal?.aborted && finishReason === undefined) {
      msg.stopReason = "error";
      msg.errorMessage = idleTimeoutMessage(idleMs);
    } else if (aborted || (opts.signal?.aborted && finishReason === undefined)) {
      msg.stopReason = "aborted";
      msg.errorMessage = "Request was aborted";
    } else if (error !== undefined) {
      msg.stopReason = "error";
      msg.errorMessage = formatModelError(error);
    } else {
      const mapped = mapFinishReason(finishReason);
      if (mapped === undefined) {
        msg.stopReason = "error";
        msg.errorMessage = "The model stream ended without a finish reason";
      } else if (finishReason === "content-filter") {
        msg.stopReason = "error";
        msg.errorMessage = "The provider stopped the response (content filter)";
      } else if (mapped === "error") {
        msg.stopReason = "error";
        msg.errorMessage = "The model reported an error";
      } else {
        // Some compatible servers finish a tool-calling response with "stop".
        msg.stopReason = mapped === "stop" && kept.some((b) => b.type === "toolCall") ? "toolUse" : mapped;
      }
    }
    if (firstDeltaAt !== undefined) msg.ttft = firstDeltaAt - start;
    msg.duration = Date.now() - start;
    emit({ type: "finish", message: msg });
    return msg;
  })();

  return { result, message };
}

/** Runs one model call and resolves with the final AssistantMessage (never rejects). */
export async function streamAssistant(opts: StreamAssistantOptions): Promise<AssistantMessage> {
  try {
    return await startAssistantStream(opts).message;
  } catch (err) {
    const { info } = opts.model;
    return {
      role: "assistant",
      content: [],
      api: apiForProvider(info.provider),
      provider: info.provider,
      model: info.id,
      usage: mapUsage(undefined),
      stopReason: opts.signal?.aborted ? "aborted" : "error",
      errorMessage: formatModelError(err),
      timestamp: Date.now(),
    };
  }
}
