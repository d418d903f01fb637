/**
 * The one function that runs a model call for a chat turn (and, through lib/llm/summarizer.ts,
 * for summaries): the provider's own `doStream` (the AI SDK's LanguageModelV3 interface), folded
 * into a session-engine.md §1.5 AssistantMessage. Server-side.
 *
 * Why not `streamText`: it validates and converts the whole prompt on every call (zod over every
 * message, then a conversion of every part), which made a long session's turn cost hundreds of
 * ms before the request left. Here the prompt is built incrementally (lib/llm/provider-prompt.ts:
 * each message is converted once and reused) and handed to the provider as it is; the provider
 * still builds and sends its own request body, so the request is what streamText sent
 * (lib/llm/provider-request.test.ts).
 *
 * Contract:
 * - Never throws and never rejects: a provider failure gives `stopReason: "error"` with an
 *   `errorMessage` from formatModelError (status code and retry headers included, session-engine.md §13.5/§14);
 *   an aborted signal gives `stopReason: "aborted"` with the partial content so far.
 * - No retries here: Arbor retries turns itself (session-engine.md §13.5).
 * - One step only. Tool calls come back as toolCall blocks; the caller executes them. Tools are
 *   sent as function tools (`toolChoice: auto`) with their JSON Schema as given.
 * - Content blocks keep stream order: text, thinking and toolCall blocks as they started.
 * - usage: input = prompt tokens not read from cache, cacheRead = cached prompt tokens,
 *   cacheWrite = tokens written to the cache, totalTokens = their sum with output.
 * - ttft = ms from the call to the first streamed text/reasoning/tool-input delta;
 *   duration = ms to the end; timestamp = when the call started.
 * - A stream that ends without a finish part is an error ("The model stream ended without a
 *   finish reason"); an `error` part or a broken stream is an error with the content so far.
 * - `onDelta` forwards text-delta, reasoning-delta, tool-call and finish events so the chat route
 *   can stream UI parts.
 * - Idle timeout: when the provider sends nothing for `idleTimeoutMs` (default 120 s; 0 turns it
 *   off) — no response headers, or a stream that stops mid-way without closing — the call is
 *   aborted and ends with `stopReason: "error"`, the content so far, and the errorMessage
 *   "The model stopped responding (no data for N s)". Without it a hung server would hold the
 *   session's run slot forever.
 */
import type { LanguageModelV3CallOptions, LanguageModelV3FinishReason, LanguageModelV3FunctionTool, LanguageModelV3StreamPart, LanguageModelV3Usage } from "@ai-sdk/provider";
import type { ProviderOptions } from "@ai-sdk/provider-utils";
import { apiForProvider } from "@/lib/llm/models";
import { formatModelError } from "@/lib/llm/model-error";
import { toProviderPrompt } from "@/lib/llm/provider-prompt";
import type { ResolvedModel } from "@/lib/llm/providers";
import { mergeProviderOptions, planReasoning, type ReasoningEffort } from "@/lib/llm/reasoning";
import { anthropicSignature, DEFAULT_IDLE_TIMEOUT_MS, idleTimeoutMessage, idleTimer, mapFinishReason, mapUsage, toArguments } from "@/lib/llm/stream-support";
import type { AssistantMessage, LlmMessage, ThinkingContent, ToolCall } from "@/lib/session/types";

export { DEFAULT_IDLE_TIMEOUT_MS, idleTimeoutMessage, mapFinishReason, mapUsage } from "@/lib/llm/stream-support";

export type AssistantDelta =
  | { type: "text-delta"; delta: string; contentIndex: number }
  | { type: "reasoning-delta"; delta: string; contentIndex: number }
  | { type: "tool-call"; toolCall: ToolCall; contentIndex: number }
  | { type: "finish"; message: AssistantMessage };

/** A tool the model may call: lib/agent's AgentToolDefinition. `inputSchema` is a JSON Schema. */
export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export interface StreamAssistantOptions {
  model: ResolvedModel;
  system?: string;
  messages: readonly LlmMessage[];
  tools?: readonly ToolDefinition[];
  maxOutputTokens?: number;
  /** Applied only when the model supports reasoning (lib/llm/reasoning.ts). */
  reasoning?: ReasoningEffort;
  providerOptions?: ProviderOptions | undefined;
  signal?: AbortSignal | undefined;
  /** Ends the call with an error after this long without data from the provider; 0 = never. */
  idleTimeoutMs?: number;
  onDelta?: (event: AssistantDelta) => void;
}

const providerTools = new WeakMap<readonly ToolDefinition[], LanguageModelV3FunctionTool[]>();

/** Tool definitions as the provider interface takes them (once per definitions array). */
export function toProviderTools(definitions: readonly ToolDefinition[]): LanguageModelV3FunctionTool[] {
  let tools = providerTools.get(definitions);
  if (!tools) {
    // The workspace tools validate their own arguments (lib/tools/registry.ts).
    tools = definitions.map((d) => ({ type: "function", name: d.name, description: d.description, inputSchema: d.inputSchema }));
    providerTools.set(definitions, tools);
  }
  return tools;
}

/** The provider's call options for `opts` (what streamText would have passed to doStream). */
export function providerCallOptions(opts: StreamAssistantOptions, abortSignal?: AbortSignal): LanguageModelV3CallOptions {
  const plan = planReasoning(opts.model.info, opts.reasoning, opts.maxOutputTokens);
  const call: LanguageModelV3CallOptions = { prompt: toProviderPrompt(opts.system, opts.messages) };
  if (plan.maxOutputTokens !== undefined) call.maxOutputTokens = plan.maxOutputTokens;
  if (opts.tools?.length) {
    call.tools = toProviderTools(opts.tools);
    call.toolChoice = { type: "auto" };
  }
  const providerOptions = mergeProviderOptions(plan.providerOptions, opts.providerOptions);
  if (providerOptions) call.providerOptions = providerOptions;
  if (abortSignal) call.abortSignal = abortSignal;
  return call;
}

function runAssistantStream(opts: StreamAssistantOptions): Promise<AssistantMessage> {
  const { info, model } = opts.model;
  const start = Date.now();
  const idleMs = opts.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  const idleController = new AbortController();
  const idle = idleTimer(idleMs, idleController);
  const abortSignal = opts.signal ? AbortSignal.any([opts.signal, idleController.signal]) : idleController.signal;

  const content: AssistantMessage["content"] = [];
  const open = new Map<string, number>();
  let firstDeltaAt: number | undefined;
  let finishReason: LanguageModelV3FinishReason["unified"] | undefined;
  let usage: LanguageModelV3Usage | undefined;
  let error: unknown;
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
  const onPart = (part: LanguageModelV3StreamPart) => {
    switch (part.type) {
      case "text-start":
        open.delete(`t:${part.id}`);
        block(`t:${part.id}`, () => ({ type: "text", text: "" }));
        break;
      case "text-delta": {
        if (!part.delta) break;
        seen();
        const i = block(`t:${part.id}`, () => ({ type: "text", text: "" }));
        (content[i] as { text: string }).text += part.delta;
        emit({ type: "text-delta", delta: part.delta, contentIndex: i });
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
        if (part.type === "reasoning-delta" && part.delta) {
          seen();
          thinking.thinking += part.delta;
          emit({ type: "reasoning-delta", delta: part.delta, contentIndex: i });
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
      case "finish":
        finishReason = part.finishReason.unified;
        usage = part.usage;
        break;
      case "error":
        error ??= part.error;
        break;
      default:
        break;
    }
  };

  const run = async () => {
    try {
      const result = await model.doStream(providerCallOptions(opts, abortSignal));
      idle.touch();
      const reader = result.stream.getReader();
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          idle.touch();
          onPart(value);
        }
      } finally {
        // A stream given up on (an error part is not the end) must not keep its connection.
        reader.cancel().catch(() => undefined);
      }
    } catch (err) {
      error ??= err;
    } finally {
      idle.clear();
    }
  };

  return run().then(() => {
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
    } else if (opts.signal?.aborted && finishReason === undefined) {
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
  });
}

/** Runs one model call and resolves with the final AssistantMessage (never rejects). */
export async function streamAssistant(opts: StreamAssistantOptions): Promise<AssistantMessage> {
  try {
    return await runAssistantStream(opts);
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
