/**
 * The agent's model ports (lib/agent/ports.ts) over lib/llm: `AgentModel` wraps a resolved
 * registry model with `streamAssistant` (chat steps) and `createSummarizer` (compaction and
 * branch summaries); `ModelResolver` is the provider registry as the agent sees it. Server-side.
 *
 * Contract:
 * - `stream` never throws (streamAssistant's contract). Tool definitions are sent as the
 *   provider's function tools (their JSON Schema as given); the agent runs tools itself
 *   (lib/agent/turn-runner.ts) and the model call stays one step.
 * - `summarizer({ onText, remoteEndpoint })` is createSummarizer bound to this model (session-engine.md §6, §7).
 * - `withCompactionModel(chat, compaction)`: the agent has one current model; when a session
 *   compacts with a different model, the agent gets this wrapper, whose `info` and `stream`
 *   are the chat model's (so thresholds, overflow checks and usage use the chat window) and
 *   whose `summarizer` and `hasApiKey` are the compaction model's.
 * - The resolver's `resolve(ref)` gives undefined for a malformed ref or an unconfigured
 *   provider (no silent fallback: session-engine.md §13.3 step 5 lists only real candidates);
 *   `listAvailable()` is every listed model, the offline one included.
 * - Every function takes an optional registry, so tests point it at the fake model server;
 *   the default is the env-built registry (lib/llm/providers.ts).
 */
import type { AgentModel, ModelResolver } from "@/lib/agent/ports";
import { parseModelRef } from "@/lib/session/model-ref";
import { getProviderRegistry, type ProviderRegistry, type ResolvedModel, type ResolveOptions } from "@/lib/llm/providers";
import { keptWireBytes } from "@/lib/llm/spliced-prompt";
import { streamAssistant } from "@/lib/llm/stream-assistant";
import { createSummarizer } from "@/lib/llm/summarizer";

export interface AgentAdapterOptions {
  registry?: ProviderRegistry;
  /** For the remote compaction endpoint (session-engine.md §7); default global fetch. */
  fetchImpl?: typeof fetch;
  /** Idle timeout of every model call, chat and summaries (lib/llm/stream-assistant.ts). */
  idleTimeoutMs?: number;
  /**
   * Told the bytes of the request texts a chat call made and keeps with its messages
   * (lib/llm/spliced-prompt.ts), so they can be counted against the session's cache budget.
   */
  onPromptMemory?: (bytes: number) => void;
}

/** The AgentModel port over one resolved registry model. */
export function createAgentModel(
  resolved: ResolvedModel,
  opts: Pick<AgentAdapterOptions, "fetchImpl" | "idleTimeoutMs" | "onPromptMemory"> = {},
): AgentModel {
  const idle = opts.idleTimeoutMs !== undefined ? { idleTimeoutMs: opts.idleTimeoutMs } : {};
  const { onPromptMemory } = opts;
  const stream: AgentModel["stream"] = (req) =>
    streamAssistant({
      model: resolved,
      messages: req.messages,
      ...(req.system !== undefined ? { system: req.system } : {}),
      ...(req.tools?.length ? { tools: req.tools } : {}),
      ...(req.maxOutputTokens !== undefined ? { maxOutputTokens: req.maxOutputTokens } : {}),
      ...(req.signal ? { signal: req.signal } : {}),
      ...(req.onDelta ? { onDelta: req.onDelta } : {}),
      ...idle,
    });
  return {
    info: resolved.info,
    hasApiKey: resolved.hasApiKey,
    stream: onPromptMemory ? (req) => keptWireBytes.run(onPromptMemory, () => stream(req)) : stream,
    summarizer(summarizerOpts = {}) {
      return createSummarizer({
        model: resolved,
        ...(summarizerOpts.remoteEndpoint ? { remoteEndpoint: summarizerOpts.remoteEndpoint } : {}),
        ...(summarizerOpts.onText ? { onText: summarizerOpts.onText } : {}),
        ...(opts.fetchImpl ? { fetchImpl: opts.fetchImpl } : {}),
        ...idle,
      });
    },
  };
}

/** Chats like `chat`, summarizes (and reports API keys) like `compaction`. */
export function withCompactionModel(chat: AgentModel, compaction: AgentModel): AgentModel {
  if (chat === compaction) return chat;
  return {
    info: chat.info,
    hasApiKey: compaction.hasApiKey,
    stream: (req) => chat.stream(req),
    summarizer: (opts) => compaction.summarizer(opts),
  };
}

/** Resolves `ref` through the registry (see providers.ts for `fallback`). */
export function resolveAgentModel(ref: string | undefined, opts: AgentAdapterOptions & ResolveOptions = {}): AgentModel {
  const { registry = getProviderRegistry(), fetchImpl, ...resolveOptions } = opts;
  return createAgentModel(registry.resolveModel(ref, resolveOptions), fetchImpl ? { fetchImpl } : {});
}

/** The ModelResolver port over the registry. */
export function createModelResolver(opts: AgentAdapterOptions = {}): ModelResolver {
  const registry = opts.registry ?? getProviderRegistry();
  const adapterOpts = {
    ...(opts.fetchImpl ? { fetchImpl: opts.fetchImpl } : {}),
    ...(opts.idleTimeoutMs !== undefined ? { idleTimeoutMs: opts.idleTimeoutMs } : {}),
    ...(opts.onPromptMemory ? { onPromptMemory: opts.onPromptMemory } : {}),
  };
  return {
    resolve(ref) {
      if (!parseModelRef(ref)) return undefined;
      const resolved = registry.resolveModel(ref, { fallback: false });
      return resolved.hasApiKey ? createAgentModel(resolved, adapterOpts) : undefined;
    },
    listAvailable() {
      return registry.listModels().map((info) => createAgentModel(registry.resolveModel(info.ref), adapterOpts));
    },
  };
}
