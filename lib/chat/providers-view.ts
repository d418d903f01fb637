import "server-only";
/**
 * What the Settings page shows (ui.md "Settings"): each provider with whether its key is set and
 * where from, its base URL, and the models it serves with their context windows (and where each
 * window comes from); the offline model last, labelled. Never a key (lib/chat/provider-settings.ts).
 */
import { chatRegistry } from "./runtime-config";
import { type ProviderStatus, providerStatus } from "./provider-settings";
import type { PageProvider } from "@/lib/llm/provider-config";
import { COMPATIBLE_PROVIDER } from "@/lib/llm/models";

export interface ModelWindow {
  ref: string;
  id: string;
  label: string;
  contextWindow: number;
  /** "page": set in Settings; "assumed": Arbor knows nothing of it (session-engine.md §15); "known": the catalogue or configuration. */
  windowSource: "page" | "assumed" | "known";
}

export interface ProvidersView {
  providers: (ProviderStatus & { models: ModelWindow[] })[];
  offline: { label: string; inUse: boolean };
  warnings: string[];
}

const REGISTRY_NAME: Record<PageProvider, string> = { openai: "openai", anthropic: "anthropic", compatible: COMPATIBLE_PROVIDER };

export async function providersView(): Promise<ProvidersView> {
  const { providers, contextWindows, warnings } = providerStatus();
  const registry = chatRegistry();
  const models = await registry.ensureModels();
  const offlineDefault = registry.getDefaultModelRef() === models.find((m) => m.offline)?.ref;
  return {
    providers: providers.map((p) => ({
      ...p,
      models: models
        .filter((m) => m.provider === REGISTRY_NAME[p.provider])
        .map((m) => ({
          ref: m.ref,
          id: m.id,
          label: m.label,
          contextWindow: m.contextWindow,
          windowSource: contextWindows[m.ref] !== undefined ? "page" : m.windowAssumed ? "assumed" : "known",
        })),
    })),
    offline: { label: "Offline model", inUse: offlineDefault },
    warnings,
  };
}
