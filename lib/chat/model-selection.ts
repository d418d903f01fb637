/**
 * Which models a session's agent uses.
 *
 * - Chat model: the one the request names (it must be available: its provider configured),
 *   else the session's `agent.chatModel`, else `modelRoles.default`, else the registry default
 *   (the first configured model, or the offline model when nothing is configured). A stored
 *   choice whose provider is gone falls back to the registry default (providers.ts).
 * - Compaction model: the session's `agent.compactionModel`, resolved WITHOUT fallback, so an
 *   unconfigured provider shows up as `hasApiKey: false` and compaction reports
 *   "No API key for <provider>" (spec §13.4); else the chat model.
 */
import type { ProviderRegistry, ResolvedModel } from "@/lib/llm/providers";
import type { Settings } from "@/lib/settings";
import type { AgentOptions } from "./session-config";

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
  input: { requested?: string; compactionRequested?: string; agent: AgentOptions; settings: Settings },
): SelectedModels {
  let chat: ResolvedModel;
  if (input.requested) {
    chat = registry.resolveModel(input.requested, { fallback: false });
    if (!chat.hasApiKey) {
      throw new ModelUnavailableError(`Model ${input.requested} is not available: No API key for ${chat.info.provider}`);
    }
  } else {
    chat = registry.resolveModel(input.agent.chatModel ?? input.settings.modelRoles.default ?? registry.getDefaultModelRef());
  }
  // A compaction model picked for one request ("Compact again with…") wins over the session's.
  const compactionRef = input.compactionRequested ?? input.agent.compactionModel;
  const compaction =
    compactionRef && compactionRef !== chat.info.ref ? registry.resolveModel(compactionRef, { fallback: false }) : chat;
  return { chat, compaction };
}
