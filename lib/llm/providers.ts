/**
 * The one provider registry (conventions rule 6). Server-side.
 *
 * Providers come from configuration: OPENAI_API_KEY → @ai-sdk/openai; ANTHROPIC_API_KEY →
 * @ai-sdk/anthropic; ARBOR_OPENAI_BASE_URL (+ ARBOR_OPENAI_API_KEY, ARBOR_OPENAI_MODELS,
 * ARBOR_OPENAI_CONTEXT_WINDOW) → @ai-sdk/openai-compatible named "openai-compatible". The offline
 * model is always listed, last, labelled "Offline model".
 *
 * Contract:
 * - `resolveModel(ref)` accepts any id under a configured provider (dated ids, ids the server
 *   serves but did not list). An absent or malformed ref, or one whose provider is not
 *   configured, resolves to the default model: the first configured one, else the offline model.
 *   With `{ fallback: false }` an unconfigured provider instead yields its metadata with
 *   `hasApiKey: false` (and the offline model as `model`), so callers can report
 *   `No API key for ${provider}` (session-engine.md §13.4).
 * - The compatible server with no model list: `ensureModels()` fetches `GET <baseURL>/models`
 *   once; until then (or if that fails) the server is listed as one model with id "default".
 * - `createProviderRegistry(config)` takes explicit config (tests point it at the fake server);
 *   the module-level functions use a registry built lazily from `env` (lib/env.ts).
 * - A registry hands out one provider model object per `provider/id` (the provider objects are
 *   configuration only, and each builds its response schemas when constructed: doing that per
 *   turn cost a millisecond and a fresh zod compilation of every streamed chunk's schema). At
 *   most MAX_MODEL_OBJECTS are kept, since a request may name any id.
 */
import "server-only";
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { type Env, env } from "@/lib/env";
import {
  COMPATIBLE_PROVIDER,
  describeModel,
  knownModelIds,
  type ModelInfo,
  type ModelOverrides,
  OFFLINE_MODEL_INFO,
  OFFLINE_PROVIDER,
  withOverrides,
} from "@/lib/llm/models";
import { modelRef, parseModelRef } from "@/lib/session/model-ref";
import { createOfflineModel, type OfflineModelOptions } from "@/lib/llm/offline-model";
import { splicedPromptModel, splicePromptFetch } from "@/lib/llm/spliced-prompt";
import { uploadFetch } from "@/lib/llm/upload-fetch";

export interface ResolvedModel {
  info: ModelInfo;
  /** The provider interface itself: lib/llm/stream-assistant.ts calls its `doStream`. */
  model: LanguageModelV3;
  /** False only for a `{ fallback: false }` lookup of a provider that is not configured. */
  hasApiKey: boolean;
}

/** A compatible-server model, by id or with metadata the server cannot tell us. */
export type CompatibleModelConfig = string | ({ id: string } & ModelOverrides);

export interface ProviderRegistryConfig {
  openai?: { apiKey: string; baseURL?: string; models?: string[] };
  anthropic?: { apiKey: string; baseURL?: string; models?: string[] };
  compatible?: {
    baseURL: string;
    apiKey?: string;
    models?: CompatibleModelConfig[];
    /** Context window for every compatible model (ARBOR_OPENAI_CONTEXT_WINDOW). */
    contextWindow?: number;
    fetch?: typeof fetch;
  };
  offline?: OfflineModelOptions;
  /** Context windows set per model ("provider/id" → tokens) in the Settings page; a session's own setting still wins. */
  contextWindows?: Readonly<Record<string, number>>;
}

export interface ResolveOptions {
  /** Session-level override of the context window. */
  contextWindow?: number;
  /** Default true; see the header. */
  fallback?: boolean;
}

export interface ProviderRegistry {
  listModels(): ModelInfo[];
  resolveModel(ref?: string, options?: ResolveOptions): ResolvedModel;
  getDefaultModelRef(): string;
  /** Discovers the compatible server's models when none were configured; never throws. */
  ensureModels(): Promise<ModelInfo[]>;
}

export const COMPATIBLE_PLACEHOLDER_ID = "default";

export function registryConfigFromEnv(e: Env): ProviderRegistryConfig {
  const config: ProviderRegistryConfig = {};
  if (e.OPENAI_API_KEY) config.openai = { apiKey: e.OPENAI_API_KEY };
  if (e.ANTHROPIC_API_KEY) config.anthropic = { apiKey: e.ANTHROPIC_API_KEY };
  if (e.ARBOR_OPENAI_BASE_URL) {
    const models = e.ARBOR_OPENAI_MODELS?.split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    config.compatible = {
      baseURL: e.ARBOR_OPENAI_BASE_URL,
      apiKey: e.ARBOR_OPENAI_API_KEY,
      models: models?.length ? models : undefined,
      contextWindow: e.ARBOR_OPENAI_CONTEXT_WINDOW,
    };
  }
  return config;
}

type Factory = (id: string) => LanguageModelV3;

export const MAX_MODEL_OBJECTS = 32;

/**
 * The providers' fetch, with a string body (their JSON) handed over as UTF-8 bytes: given a
 * string, undici first re-scans it for lone surrogates (USVString) and then encodes it, two
 * passes over what is megabytes for a long context; Buffer.from is one pass with the same bytes
 * (a lone surrogate becomes U+FFFD either way). The providers set content-type themselves.
 */
export function bytesBodyFetch(inner: typeof fetch = fetch): typeof fetch {
  return (input, init) => inner(input, init && typeof init.body === "string" ? { ...init, body: Buffer.from(init.body, "utf8") } : init);
}

export function createProviderRegistry(config: ProviderRegistryConfig): ProviderRegistry {
  const factories = new Map<string, Factory>();
  const listed = new Map<string, ModelInfo[]>();
  const compatibleMeta = new Map<string, ModelOverrides>();
  const offline = createOfflineModel(config.offline);
  const windowOf = (provider: string, id: string): ModelOverrides => {
    const w = config.contextWindows?.[`${provider}/${id}`];
    return w !== undefined ? { contextWindow: w } : {};
  };

  if (config.openai) {
    const openai = createOpenAI({ apiKey: config.openai.apiKey, baseURL: config.openai.baseURL, fetch: bytesBodyFetch() });
    factories.set("openai", (id) => openai(id));
    listed.set("openai", (config.openai.models ?? knownModelIds("openai")).map((id) => describeModel("openai", id, windowOf("openai", id))));
  }
  if (config.anthropic) {
    const anthropic = createAnthropic({ apiKey: config.anthropic.apiKey, baseURL: config.anthropic.baseURL, fetch: bytesBodyFetch() });
    factories.set("anthropic", (id) => anthropic(id));
    listed.set(
      "anthropic",
      (config.anthropic.models ?? knownModelIds("anthropic")).map((id) => describeModel("anthropic", id, windowOf("anthropic", id))),
    );
  }
  const compat = config.compatible;
  const compatBase = compat?.baseURL.replace(/\/+$/, "");
  if (compat && compatBase) {
    const provider = createOpenAICompatible({
      name: COMPATIBLE_PROVIDER,
      baseURL: compatBase,
      apiKey: compat.apiKey,
      includeUsage: true,
      // The message list is spliced in from text kept per message (lib/llm/spliced-prompt.ts);
      // a spliced body of a megabyte or more leaves through node:http (lib/llm/upload-fetch.ts).
      fetch: splicePromptFetch(bytesBodyFetch(compat.fetch ?? uploadFetch())),
    });
    factories.set(COMPATIBLE_PROVIDER, (id) => splicedPromptModel(provider.chatModel(id)));
    for (const m of compat.models ?? []) {
      const { id, ...overrides } = typeof m === "string" ? { id: m } : m;
      compatibleMeta.set(id, overrides);
    }
    setCompatible([...compatibleMeta.keys()]);
  }

  function compatibleInfo(id: string, explicit: ModelOverrides = {}): ModelInfo {
    return describeModel(COMPATIBLE_PROVIDER, id, { contextWindow: compat?.contextWindow, ...compatibleMeta.get(id), ...windowOf(COMPATIBLE_PROVIDER, id) }, explicit);
  }

  function setCompatible(ids: string[]): void {
    const list = ids.length ? ids : [COMPATIBLE_PLACEHOLDER_ID];
    listed.set(
      COMPATIBLE_PROVIDER,
      list.map((id) =>
        id === COMPATIBLE_PLACEHOLDER_ID && !ids.length ? { ...compatibleInfo(id), label: "OpenAI-compatible server (default model)" } : compatibleInfo(id),
      ),
    );
  }

  let discovery: Promise<ModelInfo[]> | undefined;

  const modelObjects = new Map<string, LanguageModelV3>();
  function modelObject(provider: string, id: string, factory: Factory): LanguageModelV3 {
    const key = modelRef(provider, id);
    let model = modelObjects.get(key);
    if (!model) {
      model = factory(id);
      if (modelObjects.size >= MAX_MODEL_OBJECTS) modelObjects.delete(modelObjects.keys().next().value as string);
      modelObjects.set(key, model);
    }
    return model;
  }

  const registry: ProviderRegistry = {
    listModels() {
      return [...listed.values()].flat().concat(OFFLINE_MODEL_INFO);
    },
    getDefaultModelRef() {
      return registry.listModels()[0]?.ref ?? OFFLINE_MODEL_INFO.ref;
    },
    resolveModel(ref, options = {}) {
      const explicit: ModelOverrides = { contextWindow: options.contextWindow };
      const parsed = parseModelRef(ref);
      if (parsed?.provider === OFFLINE_PROVIDER) return { info: withOverrides(OFFLINE_MODEL_INFO, explicit), model: offline, hasApiKey: true };
      const factory = parsed && factories.get(parsed.provider);
      if (parsed && factory) {
        const info =
          parsed.provider === COMPATIBLE_PROVIDER
            ? compatibleInfo(parsed.id, explicit)
            : describeModel(parsed.provider, parsed.id, windowOf(parsed.provider, parsed.id), explicit);
        return { info, model: modelObject(parsed.provider, parsed.id, factory), hasApiKey: true };
      }
      if (parsed && options.fallback === false) {
        return { info: describeModel(parsed.provider, parsed.id, windowOf(parsed.provider, parsed.id), explicit), model: offline, hasApiKey: false };
      }
      const fallbackRef = registry.getDefaultModelRef();
      if (fallbackRef === ref) return { info: withOverrides(OFFLINE_MODEL_INFO, explicit), model: offline, hasApiKey: true };
      return registry.resolveModel(fallbackRef, options);
    },
    ensureModels() {
      if (!compat || !compatBase || compatibleMeta.size > 0) return Promise.resolve(registry.listModels());
      discovery ??= discoverModels(compatBase, compat.apiKey, compat.fetch ?? fetch)
        .then((ids) => {
          if (ids.length) setCompatible(ids);
          else discovery = undefined;
          return registry.listModels();
        })
        .catch(() => {
          discovery = undefined;
          return registry.listModels();
        });
      return discovery;
    },
  };
  return registry;
}

async function discoverModels(baseURL: string, apiKey: string | undefined, fetchImpl: typeof fetch): Promise<string[]> {
  const res = await fetchImpl(`${baseURL}/models`, { headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {} });
  if (!res.ok) return [];
  const body = (await res.json()) as { data?: { id?: unknown }[] };
  return (body.data ?? []).map((m) => m.id).filter((id): id is string => typeof id === "string" && id.length > 0);
}

let defaultRegistry: ProviderRegistry | undefined;

/** The registry built from the environment (created on first use). */
export function getProviderRegistry(): ProviderRegistry {
  defaultRegistry ??= createProviderRegistry(registryConfigFromEnv(env));
  return defaultRegistry;
}

export function listModels(): ModelInfo[] {
  return getProviderRegistry().listModels();
}

export function resolveModel(ref?: string, options?: ResolveOptions): ResolvedModel {
  return getProviderRegistry().resolveModel(ref, options);
}

export function getDefaultModelRef(): string {
  return getProviderRegistry().getDefaultModelRef();
}

/** Shorthand for the AI SDK model behind a ref (conventions rule 6's `getModel`). */
export function getModel(ref?: string): LanguageModelV3 {
  return resolveModel(ref).model;
}
