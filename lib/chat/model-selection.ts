import "server-only";
/**
 * Which models a session's agent uses.
 *
 * - Chat model: the one the request names (it must be available: its provider configured),
 *   else the session's `agent.chatModel` (the model picker), else `modelRoles.default`, else the
 *   session's current model — the model its path last used or switched to (`sessionModelRef`,
 *   session-engine.md §3 `models.default`; session-engine.md §15: `modelRoles.default` "falls back to the current model"),
 *   when its provider is configured — else the registry default (the first configured model, or
 *   the offline model when nothing is configured). So an imported anthropic/claude-opus-4-5
 *   session goes on with claude-opus-4-5 where Anthropic is configured. A stored choice whose
 *   provider is gone falls back to the registry default (providers.ts). The offline model is
 *   never the "current model": it answers only when nothing else is configured or it is chosen.
 * - Compaction model: the session's `agent.compactionModel`, resolved WITHOUT fallback, so an
 *   unconfigured provider shows up as `hasApiKey: false` and compaction reports
 *   "No API key for <provider>" (session-engine.md §13.4); else the chat model.
 */
import { OFFLINE_PROVIDER } from "@/lib/llm/models";
import { modelRef, parseModelRef } from "@/lib/session/model-ref";
import type { ProviderRegistry, ResolvedModel } from "@/lib/llm/providers";
import type { SessionEntry } from "@/lib/session/types";
import type { Settings } from "@/lib/settings";
import type { AgentOptions } from "@/lib/chat-protocol/session-config";

export class ModelUnavailableError extends Error {
  override name = "ModelUnavailableError";
}

export interface SelectedModels {
  chat: ResolvedModel;
  /** The same object as `chat` when the session compacts with its chat model. */
  compaction: ResolvedModel;
}

export function selectModels(
  registry: ProviderRegistry,
  input: { requested?: string; compactionRequested?: string; agent: AgentOptions; settings: Settings; /** `sessionModelRef(path)` */ recorded?: string | undefined },
): SelectedModels {
  let chat: ResolvedModel;
  if (input.requested) {
    chat = registry.resolveModel(input.requested, { fallback: false });
    if (!chat.hasApiKey) {
      throw new ModelUnavailableError(`Model ${input.requested} is not available: No API key for ${chat.info.provider}`);
    }
  } else {
    const recorded = input.recorded && registry.resolveModel(input.recorded, { fallback: false }).hasApiKey ? input.recorded : undefined;
    chat = registry.resolveModel(input.agent.chatModel ?? input.settings.modelRoles.default ?? recorded ?? registry.getDefaultModelRef());
  }
  // A compaction model picked for one request ("Compact again with…") wins over the session's.
  const compactionRef = input.compactionRequested ?? input.agent.compactionModel;
  const compaction =
    compactionRef && compactionRef !== chat.info.ref ? registry.resolveModel(compactionRef, { fallback: false }) : chat;
  return { chat, compaction };
}

/**
 * The session's current model on `path` (root → leaf), session-engine.md §3 step 5: the last assistant's
 * `provider/model` or the last default-role `model_change`, whichever comes later. The offline
 * model does not count (see the header); undefined when the path names no model.
 */
export function sessionModelRef(path: readonly SessionEntry[]): string | undefined {
  for (let i = path.length - 1; i >= 0; i--) {
    const e = path[i] as SessionEntry;
    let ref: string | undefined;
    if (e.type === "model_change" && typeof e.model === "string" && (e.role === undefined || e.role === "default")) ref = e.model;
    else if (e.type === "message" && e.message.role === "assistant" && typeof e.message.provider === "string" && typeof e.message.model === "string") {
      ref = modelRef(e.message.provider, e.message.model);
    }
    if (ref === undefined) continue;
    return parseModelRef(ref)?.provider === OFFLINE_PROVIDER ? undefined : ref;
  }
  return undefined;
}
