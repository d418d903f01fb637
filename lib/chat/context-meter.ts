/**
 * The context meter by the composer (spec §4 "Context usage shown in the UI", ui.md).
 * Pure and client-safe. After a compaction, the last assistant's usage measures the context as it
 * was *before* the compaction, so until an assistant replies after the latest compaction the
 * meter shows an estimate of the rebuilt context instead (flagged `estimated`).
 */
import { estimateTokens, getContextUsage, type ContextUsage } from "@/lib/compaction/tokens";
import type { AgentMessage, SessionEntry } from "@/lib/session/types";

export interface MeterReading extends ContextUsage {
  /** True when the figure is our estimate rather than provider-reported usage. */
  estimated: boolean;
  /** contextWindow − reserveTokens: past this, threshold compaction runs (spec §4 shouldCompact). */
  threshold: number;
  overThreshold: boolean;
}

export function readContextMeter(
  path: readonly SessionEntry[],
  messages: AgentMessage[],
  contextWindow: number,
  reserveTokens: number,
): MeterReading | undefined {
  const usage = getContextUsage(messages, contextWindow);
  if (!usage) return undefined;
  let lastCompaction = -1;
  let lastUsage = -1;
  path.forEach((e, i) => {
    if (e.type === "compaction") lastCompaction = i;
    else if (e.type === "message" && e.message.role === "assistant" && e.message.usage) lastUsage = i;
  });
  const estimated = lastCompaction > lastUsage || usage.lastUsageIndex === null;
  let reading: ContextUsage = usage;
  if (lastCompaction > lastUsage) {
    const tokens = messages.reduce((sum, m) => sum + estimateTokens(m), 0);
    reading = { tokens, usageTokens: 0, trailingTokens: tokens, lastUsageIndex: null, contextWindow, percent: (tokens / contextWindow) * 100 };
  }
  const threshold = contextWindow - reserveTokens;
  return { ...reading, estimated, threshold, overThreshold: reading.tokens > threshold };
}
