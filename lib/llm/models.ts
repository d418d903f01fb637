/**
 * Model metadata: context windows, output limits and reasoning support.
 * Pure data and lookups (no env, no network): lib/llm/providers.ts passes env-derived overrides in.
 *
 * Precedence for a model's context window: an explicit override (a session setting) > a provider
 * override (ARBOR_OPENAI_CONTEXT_WINDOW for the compatible server) > the known-model table >
 * FALLBACK_CONTEXT_WINDOW (128000, session-engine.md §15).
 */
import { modelRef } from "@/lib/session/model-ref";

export interface ModelInfo {
  provider: string;
  id: string;
  /** "provider/id", the form stored in model_change entries and settings. */
  ref: string;
  label: string;
  contextWindow: number;
  maxOutputTokens: number;
  reasoning: boolean;
  /** True only for Arbor's built-in offline model. */
  offline?: boolean;
  /**
   * True when nothing (configuration, a session setting, the known-model tables) gave the
   * window: `contextWindow` is the session-engine.md §15 fallback, and the page says it is assumed.
   */
  windowAssumed?: boolean;
}

export interface ModelOverrides {
  contextWindow?: number;
  maxOutputTokens?: number;
  reasoning?: boolean;
  label?: string;
}

/** Session-engine.md §15: the window assumed for a model we know nothing about. */
export const FALLBACK_CONTEXT_WINDOW = 128_000;
export const FALLBACK_MAX_OUTPUT_TOKENS = 16_384;

export const OFFLINE_PROVIDER = "offline";
export const OFFLINE_MODEL_ID = "offline";
export const OFFLINE_LABEL = "Offline model";
export const COMPATIBLE_PROVIDER = "openai-compatible";

interface KnownModel {
  label: string;
  contextWindow: number;
  maxOutputTokens: number;
  reasoning: boolean;
}

const k = (label: string, contextWindow: number, maxOutputTokens: number, reasoning: boolean): KnownModel => ({
  label,
  contextWindow,
  maxOutputTokens,
  reasoning,
});

/**
 * OpenAI models, in the order the model picker lists them. Context window and maximum output
 * tokens as each model's page at platform.openai.com/docs/models states them (checked 2025).
 */
export const OPENAI_MODELS: Readonly<Record<string, KnownModel>> = {
  "gpt-5": k("GPT-5", 400_000, 128_000, true),
  "gpt-5-mini": k("GPT-5 mini", 400_000, 128_000, true),
  "gpt-5-nano": k("GPT-5 nano", 400_000, 128_000, true),
  "gpt-4.1": k("GPT-4.1", 1_047_576, 32_768, false),
  "gpt-4.1-mini": k("GPT-4.1 mini", 1_047_576, 32_768, false),
  "gpt-4.1-nano": k("GPT-4.1 nano", 1_047_576, 32_768, false),
  "gpt-4o": k("GPT-4o", 128_000, 16_384, false),
  "gpt-4o-mini": k("GPT-4o mini", 128_000, 16_384, false),
  o3: k("o3", 200_000, 100_000, true),
  "o3-mini": k("o3-mini", 200_000, 100_000, true),
  "o4-mini": k("o4-mini", 200_000, 100_000, true),
  o1: k("o1", 200_000, 100_000, true),
};

/**
 * Anthropic models, in picker order. Context window and maximum output tokens from Anthropic's
 * models overview, docs.anthropic.com/en/docs/about-claude/models/overview (checked 2025; the
 * 1M-token window of some models is a beta that needs a request header Arbor does not send).
 */
export const ANTHROPIC_MODELS: Readonly<Record<string, KnownModel>> = {
  "claude-sonnet-4-5": k("Claude Sonnet 4.5", 200_000, 64_000, true),
  "claude-opus-4-5": k("Claude Opus 4.5", 200_000, 64_000, true),
  "claude-haiku-4-5": k("Claude Haiku 4.5", 200_000, 64_000, true),
  "claude-opus-4-1": k("Claude Opus 4.1", 200_000, 32_000, true),
  "claude-opus-4": k("Claude Opus 4", 200_000, 32_000, true),
  "claude-sonnet-4": k("Claude Sonnet 4", 200_000, 64_000, true),
  "claude-3-7-sonnet": k("Claude Sonnet 3.7", 200_000, 64_000, true),
  "claude-3-5-sonnet": k("Claude Sonnet 3.5", 200_000, 8_192, false),
  "claude-3-5-haiku": k("Claude Haiku 3.5", 200_000, 8_192, false),
};

const TABLES: Readonly<Record<string, Readonly<Record<string, KnownModel>>>> = {
  openai: OPENAI_MODELS,
  anthropic: ANTHROPIC_MODELS,
};

/**
 * Open-weight families that think before answering, for compatible servers (Ollama, vLLM, …),
 * where no table applies. Only used to default `reasoning`; configuration can override it.
 */
const REASONING_FAMILIES = /^(o[1-9](-|$)|gpt-5|gpt-oss|deepseek-r1|qwq|qwen3|magistral|phi-4-reasoning)|thinking|reasoner/i;

/**
 * Finds table metadata for an id: exact, then the longest table key the id starts with, so dated
 * ids ("claude-sonnet-4-5-20250929", "gpt-4o-2024-08-06") match. For compatible servers the id is
 * also tried without a routing prefix ("openai/gpt-4o") or an Ollama tag ("qwen3:8b").
 */
export function lookupKnownModel(provider: string, id: string): KnownModel | undefined {
  const tables = provider === COMPATIBLE_PROVIDER ? Object.values(TABLES) : [TABLES[provider]].filter((t) => !!t);
  const candidates = [id.toLowerCase()];
  if (provider === COMPATIBLE_PROVIDER) {
    const bare = id.toLowerCase().split("/").at(-1)?.split(":")[0];
    if (bare && bare !== candidates[0]) candidates.push(bare);
  }
  for (const candidate of candidates) {
    for (const table of tables) {
      if (!table) continue;
      const exact = table[candidate];
      if (exact) return exact;
      const prefix = Object.keys(table)
        .filter((key) => candidate.startsWith(`${key}-`))
        .sort((a, b) => b.length - a.length)[0];
      if (prefix) return table[prefix];
    }
  }
  return undefined;
}

/**
 * Metadata for any provider/id. `providerOverrides` come from configuration (env); `explicit`
 * (e.g. a session's context-window setting) wins over everything.
 */
export function describeModel(
  provider: string,
  id: string,
  providerOverrides: ModelOverrides = {},
  explicit: ModelOverrides = {},
): ModelInfo {
  if (provider === OFFLINE_PROVIDER) return withOverrides(OFFLINE_MODEL_INFO, explicit);
  const known = lookupKnownModel(provider, id);
  const merged = { ...providerOverrides, ...definedOnly(explicit) };
  const windowAssumed = positive(merged.contextWindow) === undefined && !known;
  return {
    provider,
    id,
    ref: modelRef(provider, id),
    label: merged.label ?? known?.label ?? id,
    contextWindow: positive(merged.contextWindow) ?? known?.contextWindow ?? FALLBACK_CONTEXT_WINDOW,
    maxOutputTokens: positive(merged.maxOutputTokens) ?? known?.maxOutputTokens ?? FALLBACK_MAX_OUTPUT_TOKENS,
    reasoning: merged.reasoning ?? known?.reasoning ?? (provider === COMPATIBLE_PROVIDER && REASONING_FAMILIES.test(id)),
    ...(windowAssumed ? { windowAssumed } : {}),
  };
}

/** The ids a provider's picker lists by default. */
export function knownModelIds(provider: string): string[] {
  return Object.keys(TABLES[provider] ?? {});
}

/**
 * Which wire API a provider speaks, for `AssistantMessage.api` (the names pi uses, so files mix).
 * @ai-sdk/openai's default language model uses the Responses API.
 */
export function apiForProvider(provider: string): string {
  switch (provider) {
    case "openai":
      return "openai-responses";
    case "anthropic":
      return "anthropic-messages";
    case COMPATIBLE_PROVIDER:
      return "openai-completions";
    default:
      return provider;
  }
}

/** The offline model is always listed; its window only bounds the extractive summaries. */
export const OFFLINE_MODEL_INFO: ModelInfo = {
  provider: OFFLINE_PROVIDER,
  id: OFFLINE_MODEL_ID,
  ref: modelRef(OFFLINE_PROVIDER, OFFLINE_MODEL_ID),
  label: OFFLINE_LABEL,
  contextWindow: FALLBACK_CONTEXT_WINDOW,
  maxOutputTokens: FALLBACK_MAX_OUTPUT_TOKENS,
  reasoning: false,
  offline: true,
  windowAssumed: true,
};

/** Applies explicit overrides (only the defined ones) to existing metadata. */
export function withOverrides(info: ModelInfo, overrides: ModelOverrides = {}): ModelInfo {
  const o = definedOnly(overrides);
  return {
    ...info,
    ...(o.label !== undefined ? { label: o.label } : {}),
    ...(positive(o.contextWindow) !== undefined ? { contextWindow: o.contextWindow as number, windowAssumed: false } : {}),
    ...(positive(o.maxOutputTokens) !== undefined ? { maxOutputTokens: o.maxOutputTokens as number } : {}),
    ...(o.reasoning !== undefined ? { reasoning: o.reasoning } : {}),
  };
}

function positive(n: number | undefined): number | undefined {
  return n !== undefined && Number.isFinite(n) && n > 0 ? Math.floor(n) : undefined;
}

function definedOnly(o: ModelOverrides): ModelOverrides {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as ModelOverrides;
}
