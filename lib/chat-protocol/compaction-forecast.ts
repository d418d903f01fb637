/**
 * Whether the next message will first compact, said before it is sent (ui.md "context meter":
 * "Sending will first compact: 181k > 167k"). Pure and client-safe.
 *
 * It replays the pre-prompt check of session-engine.md §13.1 / §13.2 (the same rules as
 * lib/agent/compaction-check.ts and the inspector's next-turn preview, lib/inspector/preview.ts)
 * in two halves:
 * - `compactionForecast(path, messages)`, where the entries are (the server's meter basis): the
 *   working context's last assistant — its reported context (`calculateContextTokens`) less what
 *   pruning would save (§8), its model, whether it ended in an error or a context overflow, and
 *   whether it predates the latest compaction (§18);
 * - `nextSendCompacts(forecast, model, settings)`, where the model and settings are known (the
 *   page): overflow from this same model → "overflow"; an error → nothing; otherwise "threshold"
 *   when the tokens exceed the window less `reserveTokens` (§4 shouldCompact). A model whose window
 *   is unknown (≤ 0) never reaches the threshold, as in the agent;
 * - `nextSendPrunes(...)`: the send that does not compact only because pruning (§8) brings the
 *   context under the threshold, so the meter can say why a reading past it warns of nothing.
 */
import { DEFAULT_PRUNE_CONFIG, planPrune } from "@/lib/compaction/pruning";
import { calculateContextTokens, toolResultTokens } from "@/lib/compaction/tokens";
import { isContextOverflow } from "@/lib/compaction/overflow";
import type { AgentMessage, AssistantMessage, SessionEntry } from "@/lib/session/types";
import type { CompactionForecast } from "@/lib/types/session-page";

export type { CompactionForecast };


/** The forecast of a path and its working context; undefined when the context has no assistant (§13.1: no check). */
export function compactionForecast(path: readonly SessionEntry[], messages: readonly AgentMessage[]): CompactionForecast | undefined {
  let last: AssistantMessage | undefined;
  for (let i = messages.length - 1; i >= 0 && !last; i--) {
    const m = messages[i];
    if (m?.role === "assistant") last = m;
  }
  if (!last) return undefined;
  let latestCompaction: number | undefined;
  for (let i = path.length - 1; i >= 0; i--) {
    const e = path[i]!;
    if (e.type === "compaction") {
      latestCompaction = Date.parse(e.timestamp);
      break;
    }
  }
  const saved = planPrune(path, DEFAULT_PRUNE_CONFIG, toolResultTokens).tokensSaved;
  const reported = last.usage ? calculateContextTokens(last.usage) : 0;
  return {
    tokens: Math.max(0, reported - saved),
    pruneSaved: Math.min(saved, reported),
    promptTokens: (last.usage?.input ?? 0) + (last.usage?.cacheRead ?? 0),
    provider: last.provider,
    model: last.model,
    error: last.stopReason === "error",
    overflowError: isContextOverflow(last),
    beforeCompaction: latestCompaction !== undefined && last.timestamp < latestCompaction,
  };
}

export interface SendCompaction {
  reason: "overflow" | "threshold";
  tokens: number;
  /** window − reserveTokens (threshold compactions). */
  threshold: number;
}

/** The next turn's model and the compaction settings, as the page knows them. */
type NextModel = { provider: string; id: string; contextWindow: number } | undefined;
type Settings = { enabled: boolean; reserveTokens: number };

export function nextSendCompacts(forecast: CompactionForecast | undefined, model: NextModel, settings: Settings): SendCompaction | null {
  if (!forecast || !model || !settings.enabled) return null;
  const threshold = model.contextWindow - settings.reserveTokens;
  const sameModel = forecast.provider === model.provider && forecast.model === model.id;
  const silentOverflow = model.contextWindow > 0 && forecast.promptTokens > model.contextWindow;
  if (sameModel && !forecast.beforeCompaction && (forecast.overflowError || silentOverflow)) return { reason: "overflow", tokens: forecast.tokens, threshold };
  if (forecast.error) return null;
  if (model.contextWindow > 0 && forecast.tokens > threshold) return { reason: "threshold", tokens: forecast.tokens, threshold };
  return null;
}

export interface SendPrune {
  /** The reported context, and what is left of it once old tool outputs are pruned. */
  before: number;
  after: number;
  threshold: number;
}

/** Set when the reported context is past the threshold and pruning alone brings it under (no compaction). */
export function nextSendPrunes(forecast: CompactionForecast | undefined, model: NextModel, settings: Settings): SendPrune | null {
  if (!forecast || !model || !settings.enabled || model.contextWindow <= 0 || forecast.pruneSaved <= 0) return null;
  if (nextSendCompacts(forecast, model, settings)) return null;
  const threshold = model.contextWindow - settings.reserveTokens;
  const before = forecast.tokens + forecast.pruneSaved;
  return before > threshold ? { before, after: forecast.tokens, threshold } : null;
}
