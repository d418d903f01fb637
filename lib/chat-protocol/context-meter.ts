/**
 * The context meter by the composer (session-engine.md §4 "Context usage shown in the UI", ui.md).
 * Pure and client-safe. After a compaction, the last assistant's usage measures the context as it
 * was *before* the compaction, so until an assistant replies after the latest compaction the
 * meter shows an estimate of the rebuilt context instead (flagged `estimated`).
 */
import { type ContextUsage, estimateContextTokens, estimateTokens } from "@/lib/compaction/tokens";
import { compactionForecast } from "./compaction-forecast";
import type { AgentMessage, SessionEntry } from "@/lib/session/types";
import { groupDigits } from "@/lib/text/group-digits";
import type { MeterBasis } from "@/lib/types/session-page";

/**
 * The model whose window the meter measures against: the session's own model (the one its path
 * last used, from the file) unless the user picked one for the next turn, else the next turn's.
 */
export interface MeterModel {
  /** The model's id, the name the meter shows ("claude-opus-4-5"). */
  id: string;
  contextWindow: number;
  /** The window is the session-engine.md §15 fallback: nothing told Arbor this model's window. */
  windowAssumed: boolean;
  offline: boolean;
}

export interface MeterReading extends ContextUsage {
  /** True when the figure is our estimate rather than provider-reported usage. */
  estimated: boolean;
  /** The model the window belongs to, when known. */
  model?: MeterModel;
  /** contextWindow − reserveTokens: past this, threshold compaction runs (session-engine.md §4 shouldCompact). */
  threshold: number;
  overThreshold: boolean;
}

export function meterBasis(path: readonly SessionEntry[], messages: AgentMessage[]): MeterBasis {
  const estimate = estimateContextTokens(messages);
  const estimateAll = messages.reduce((sum, m) => sum + estimateTokens(m), 0);
  const forecast = compactionForecast(path, messages);
  const extra = { estimateAll, ...(forecast ? { forecast } : {}) };
  let lastCompaction = -1;
  let lastUsage = -1;
  path.forEach((e, i) => {
    if (e.type === "compaction") lastCompaction = i;
    else if (e.type === "message" && e.message.role === "assistant" && e.message.usage) lastUsage = i;
  });
  if (lastCompaction > lastUsage) {
    // The last usage measures the context before the compaction: estimate the rebuilt one.
    return { tokens: estimateAll, usageTokens: 0, trailingTokens: estimateAll, lastUsageIndex: null, estimated: true, ...extra };
  }
  const reporter = estimate.lastUsageIndex === null ? undefined : messages[estimate.lastUsageIndex];
  const reportedBy = reporter?.role === "assistant" ? `${reporter.provider}/${reporter.model}` : undefined;
  return { ...estimate, estimated: estimate.lastUsageIndex === null, ...extra, ...(reportedBy ? { reportedBy } : {}) };
}

/** The reading for a model's window; undefined without a window (session-engine.md §4 getContextUsage). */
export function meterReading(basis: MeterBasis, contextWindow: number, reserveTokens: number, model?: MeterModel): MeterReading | undefined {
  if (!(contextWindow > 0)) return undefined;
  const { estimated, estimateAll: _all, reportedBy: _by, forecast: _forecast, ...estimate } = basis;
  const threshold = contextWindow - reserveTokens;
  return {
    ...estimate,
    contextWindow,
    percent: (estimate.tokens / contextWindow) * 100,
    estimated,
    threshold,
    overThreshold: estimate.tokens > threshold,
    ...(model ? { model } : {}),
  };
}

/** Token counts as the meter writes them: "912", "6,012", "32k", "200k", "1.05M" (en-US on server and client alike). */
export function meterTokens(n: number): string {
  if (n >= 1_000_000) return `${Number((n / 1_000_000).toFixed(2))}M`;
  return n >= 10_000 ? `${Math.round(n / 1000)}k` : groupDigits(n);
}

/**
 * The window the meter measures against, named (docs/ui.md "The session workspace"): "claude-opus-4-5's 200k", "the
 * offline model's 128k (assumed)", "llama3's 128k (assumed)"; without a model "an assumed 128k".
 */
export function meterWindowText(contextWindow: number, model: MeterModel | undefined): string {
  const size = meterTokens(contextWindow);
  if (!model) return `an assumed ${size}`;
  const owner = model.offline ? "the offline model's" : `${model.id}'s`;
  return `${owner} ${size}${model.windowAssumed ? " (assumed)" : ""}`;
}

/** The meter's visible text: "181k of claude-opus-4-5's 200k (91%)", "~1,234 of … (4%) estimated". */
export function meterText(r: MeterReading): string {
  const tokens = `${r.estimated ? "~" : ""}${meterTokens(r.tokens)}`;
  return `${tokens} of ${meterWindowText(r.contextWindow, r.model)} (${r.percent.toFixed(0)}%)${r.estimated ? " estimated" : ""}`;
}

export function readContextMeter(
  path: readonly SessionEntry[],
  messages: AgentMessage[],
  contextWindow: number,
  reserveTokens: number,
): MeterReading | undefined {
  return meterReading(meterBasis(path, messages), contextWindow, reserveTokens);
}
