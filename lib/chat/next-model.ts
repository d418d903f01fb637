import "server-only";
/**
 * The model the session's next turn will use, as the page shows it (the model picker's value and
 * the context meter's window, docs/ui.md "The session workspace"). Computed on the server with the same selection the turn
 * itself makes (lib/chat/model-selection `selectModels`), so the meter measures against the
 * window the next request really has.
 */
import type { SessionView } from "@/lib/db";
import type { ProviderRegistry } from "@/lib/llm/providers";
import type { SessionEntry } from "@/lib/session/types";
import type { ModelInfo } from "@/lib/llm/models";
import type { NextTurnModel, PageModel } from "@/lib/types/session-page";
import type { ModelOption } from "@/lib/types/models";
import { selectModels, sessionModelRef } from "./model-selection";
import { chatRegistry } from "./runtime-config";
import { readSessionConfig } from "@/lib/chat-protocol/session-config";

export type { NextTurnModel };

function pageModel(info: ModelInfo): PageModel {
  return {
    ref: info.ref,
    id: info.id,
    provider: info.provider,
    label: info.label,
    contextWindow: info.contextWindow,
    windowAssumed: info.windowAssumed === true,
    offline: info.offline === true,
  };
}

export function nextTurnModel(registry: ProviderRegistry, settings: unknown, path: readonly SessionEntry[]): NextTurnModel {
  const config = readSessionConfig(settings);
  const recorded = sessionModelRef(path);
  const { chat } = selectModels(registry, { agent: config.agent, settings: config.settings, recorded });
  const picked = config.agent.chatModel !== undefined || config.settings.modelRoles.default !== undefined;
  // The session's own model, described by the catalogue even where its provider is not configured.
  const own = recorded ? registry.resolveModel(recorded, { fallback: false }) : undefined;
  return {
    ...pageModel(chat.info),
    ...(picked ? { picked } : {}),
    ...(own ? { session: { ...pageModel(own.info), available: own.hasApiKey } } : {}),
  };
}

/** `nextTurnModel` for a session as read (the registry's model list discovered first). */
export async function nextTurnModelOf(view: SessionView): Promise<NextTurnModel> {
  const registry = chatRegistry();
  await registry.ensureModels();
  return nextTurnModel(registry, view.meta.settings, view.tree.getBranch());
}

/** The picker's list and the registry default: GET /api/models, and the session page's prefetch. */
export async function modelList(): Promise<{ models: ModelOption[]; defaultModel: string }> {
  const registry = chatRegistry();
  const models = (await registry.ensureModels()).map((m) => ({
    ref: m.ref,
    provider: m.provider,
    id: m.id,
    label: m.label,
    contextWindow: m.contextWindow,
    maxOutputTokens: m.maxOutputTokens,
    reasoning: m.reasoning,
    offline: m.offline === true,
  }));
  return { models, defaultModel: registry.getDefaultModelRef() };
}
