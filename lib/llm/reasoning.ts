/**
 * How a reasoning request becomes provider options (session-engine.md §6.3).
 * Pure. Reasoning is applied only when the model's metadata says it supports it, and dropped
 * otherwise:
 * - Anthropic: extended thinking with a budget (16384 for "high") added on top of the requested
 *   output tokens and capped at the model's output limit. When the cap leaves the budget no room,
 *   the budget shrinks to what is left after a 1024-token answer; below Anthropic's 1024-token
 *   minimum, thinking is disabled.
 * - OpenAI and OpenAI-compatible: `reasoningEffort`.
 * - Anything else (the offline model): nothing.
 */
import type { ProviderOptions } from "@ai-sdk/provider-utils";
import { COMPATIBLE_PROVIDER, type ModelInfo } from "@/lib/llm/models";

export type ReasoningEffort = "low" | "medium" | "high";

export const ANTHROPIC_THINKING_BUDGETS: Readonly<Record<ReasoningEffort, number>> = {
  low: 4096,
  medium: 8192,
  high: 16_384,
};
/** Anthropic rejects smaller thinking budgets; also the least output left for the answer. */
export const ANTHROPIC_MIN_THINKING_BUDGET = 1024;

export interface ReasoningPlan {
  /** What to pass as `maxOutputTokens` (for Anthropic: the answer part; the SDK adds the budget). */
  maxOutputTokens?: number;
  providerOptions?: ProviderOptions;
  /** The thinking budget used (Anthropic only). */
  thinkingBudget?: number;
  applied: boolean;
}

export function planReasoning(info: ModelInfo, effort: ReasoningEffort | undefined, maxTokens?: number): ReasoningPlan {
  const plain: ReasoningPlan = { maxOutputTokens: maxTokens, applied: false };
  if (!effort || !info.reasoning) return plain;

  if (info.provider === "anthropic") {
    const limit = info.maxOutputTokens;
    const base = maxTokens ?? limit;
    const total = Math.min(base + ANTHROPIC_THINKING_BUDGETS[effort], limit);
    let budget = ANTHROPIC_THINKING_BUDGETS[effort];
    if (total <= budget) budget = total - ANTHROPIC_MIN_THINKING_BUDGET;
    if (budget < ANTHROPIC_MIN_THINKING_BUDGET) return { maxOutputTokens: Math.min(base, limit), applied: false };
    return {
      maxOutputTokens: total - budget,
      thinkingBudget: budget,
      providerOptions: { anthropic: { thinking: { type: "enabled", budgetTokens: budget } } },
      applied: true,
    };
  }
  if (info.provider === "openai") {
    return { maxOutputTokens: maxTokens, providerOptions: { openai: { reasoningEffort: effort } }, applied: true };
  }
  if (info.provider === COMPATIBLE_PROVIDER) {
    return { maxOutputTokens: maxTokens, providerOptions: { openaiCompatible: { reasoningEffort: effort } }, applied: true };
  }
  return plain;
}

/** Merges provider-option objects one provider key deep. */
export function mergeProviderOptions(...all: (ProviderOptions | undefined)[]): ProviderOptions | undefined {
  const out: ProviderOptions = {};
  for (const options of all) {
    for (const [key, value] of Object.entries(options ?? {})) out[key] = { ...(out[key] ?? {}), ...value };
  }
  return Object.keys(out).length ? out : undefined;
}
