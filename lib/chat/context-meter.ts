/**
 * The context meter by the composer (spec §4 "Context usage shown in the UI", ui.md).
 * Pure and client-safe. After a compaction, the last assistant's usage measures the context as it
 * was *before* the compaction, so until an assistant replies after the latest compaction the
 * meter shows an estimate of the rebuilt context instead (flagged `estimated`).
 */
import { type ContextTokenEstimate, type ContextUsage, estimateContextTokens, estimateTokens } from "@/lib/compaction/tokens";
import type { AgentMessage, SessionEntry } from "@/lib/session/types";

export interface MeterReading extends ContextUsage {
  /** True when the figure is our estimate rather than provider-reported usage. */
  estimated: boolean;
  /** contextWindow − reserveTokens: past this, threshold compaction runs (spec §4 shouldCompact). */
  threshold: number;
  overThreshold: boolean;
}

/**
 * What the meter needs of a path, independent of the chat model's window: the context estimate
 * (spec §4) and whether it is our estimate. Computed where the entries are (the server's skeleton
 * route), so the client needs no message contents to show the meter.
 */
export interface MeterBasis extends ContextTokenEstimate {
  estimated: boolean;
}

export function meterBasis(path: readonly SessionEntry[], messages: AgentMessage[]): MeterBasis {
  const estimate = estimateContextTokens(messages);
  let lastCompaction = -1;
  let lastUsage = -1;
  path.forEach((e, i) => {
    if (e.type === "compaction") lastCompaction = i;
    else if (e.type === "message" && e.message.role === "assistant" && e.message.usage) lastUsage = i;
  });
  if (lastCompaction > lastUsage) {
    // The last usage measures the context before the compaction: estimate the rebuilt one.
    const tokens = messages.reduce((sum, m) => sum + estimateTokens(m), 0);
    return { tokens, usageTokens: 0, trailingTokens: tokens, lastUsageIndex: null, estimated: true };
  }
  return { ...estimate, estimated: estimate.lastUsageIndex === null };
}

/** The reading for a model's window; undefined without a window (spec §4 getContextUsage). */
export function meterReading(basis: MeterBasis, contextWindow: number, reserveTokens: number): MeterReading | undefined {
  if (!(contextWindow > 0)) return undefined;
  const { estimated, ...estimate } = basis;
  const threshold = contextWindow - reserveTokens;
  return { ...estimate, contextWindow, percent: (estimate.tokens / contextWindow) * 100, estimated, threshold, overThreshold: estimate.tokens > threshold };
}

export function readContextMeter(
  path: readonly SessionEntry[],
  messages: AgentMessage[],
  contextWindow: number,
  reserveTokens: number,
): MeterReading | undefined {
  return meterReading(meterBasis(path, messages), contextWindow, reserveTokens);
}
