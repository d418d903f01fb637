/**
 * Tool-output pruning (session-engine.md §8).
 * Pure: no network, disk or database access. It mutates the tool-result messages of the
 * entries it is given, in place, as the spec requires; it also returns each pruned result's
 * original content so the caller can persist it and undo the prune later. `planPrune` makes
 * the same decision without mutating, so a caller whose entries are shared can copy just the
 * results it will rewrite.
 *
 * Contract: walk newest → oldest over toolResult messages; roughly the newest `protectTokens`
 * of tool output and every result of a protected tool stay intact; older results are replaced
 * by a one-line notice, but only if that saves at least `minimumSavings` tokens overall —
 * otherwise nothing changes at all.
 */
import { estimateTextTokens, estimateTokens } from "@/lib/compaction/tokens";
import type { ImageContent, SessionEntry, TextContent, ToolResultMessage } from "@/lib/session/types";

export interface PruneConfig {
  protectTokens: number;
  minimumSavings: number;
  protectedTools: readonly string[];
}

export const DEFAULT_PRUNE_CONFIG: Readonly<PruneConfig> = Object.freeze({
  protectTokens: 40_000,
  minimumSavings: 20_000,
  protectedTools: Object.freeze(["skill", "read"]),
});

export interface PrunedToolResult {
  entryId: string;
  /** Index into the `entries` array passed to pruneToolOutputs. */
  index: number;
  /** The content before pruning, for persistence and undo. */
  originalContent: (TextContent | ImageContent)[];
}

export interface PruneResult {
  prunedCount: number;
  tokensSaved: number;
  /** Oldest first (entry order). Empty when nothing was pruned. */
  pruned: PrunedToolResult[];
}

/** The text a pruned result is replaced with (session-engine.md §8 step 6). */
export function pruneNotice(tokens: number): string {
  return `[Output truncated - ${tokens} tokens]`;
}

/** What a prune would rewrite: the candidates (newest first) and the tokens it would save. */
export interface PrunePlan {
  candidates: { index: number; tokens: number }[];
  tokensSaved: number;
}

/**
 * The decision of pruneToolOutputs without touching anything: which results it would rewrite.
 * Empty when it would change nothing (no candidates, or savings under `minimumSavings`).
 * `tokensOf` must equal estimateTokens (a caller whose messages never change may remember it).
 */
export function planPrune(
  entries: readonly SessionEntry[],
  config: PruneConfig = DEFAULT_PRUNE_CONFIG,
  tokensOf: (message: ToolResultMessage) => number = estimateTokens,
): PrunePlan {
  const protectedTools = new Set(config.protectedTools);
  const candidates: PrunePlan["candidates"] = [];
  let acc = 0;
  let tokensSaved = 0;

  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i];
    if (entry?.type !== "message" || entry.message.role !== "toolResult") continue;
    const message = entry.message;
    const tokens = tokensOf(message);
    // Already-pruned and protected results still count towards the protected window.
    const keep = message.prunedAt !== undefined || acc < config.protectTokens || protectedTools.has(message.toolName);
    acc += tokens;
    if (keep) continue;
    candidates.push({ index: i, tokens });
    tokensSaved += Math.max(0, tokens - estimateTextTokens(pruneNotice(tokens)));
  }
  if (candidates.length === 0 || tokensSaved < config.minimumSavings) return { candidates: [], tokensSaved: 0 };
  return { candidates, tokensSaved };
}

/** Applies a plan of planPrune to the same `entries`, rewriting the candidates' messages in place. */
export function applyPrunePlan(entries: readonly SessionEntry[], plan: PrunePlan, now: number = Date.now()): PruneResult {
  const pruned: PrunedToolResult[] = [];
  // Reverse so the report is in entry order; one `now` for every candidate (session-engine.md §8 step 8).
  for (const { index, tokens } of [...plan.candidates].reverse()) {
    const entry = entries[index];
    if (entry?.type !== "message" || entry.message.role !== "toolResult") continue;
    const message = entry.message;
    pruned.push({ entryId: entry.id, index, originalContent: message.content });
    message.content = [{ type: "text", text: pruneNotice(tokens) }];
    message.prunedAt = now;
  }
  return { prunedCount: pruned.length, tokensSaved: pruned.length ? plan.tokensSaved : 0, pruned };
}

export function pruneToolOutputs(
  entries: SessionEntry[],
  config: PruneConfig = DEFAULT_PRUNE_CONFIG,
  now: number = Date.now(),
): PruneResult {
  return applyPrunePlan(entries, planPrune(entries, config), now);
}

/** Undoes one prune: puts the original content back and clears `prunedAt`. */
export function restorePrunedToolResult(
  message: ToolResultMessage,
  originalContent: (TextContent | ImageContent)[],
): void {
  message.content = originalContent;
  delete message.prunedAt;
}

/**
 * Undoes a whole prune on the same `entries` array. Each record is matched by index and
 * checked by id, so a record that no longer lines up is skipped; returns how many were restored.
 */
export function restorePrunedToolOutputs(entries: SessionEntry[], pruned: PrunedToolResult[]): number {
  let restored = 0;
  for (const record of pruned) {
    const entry = entries[record.index];
    if (entry?.id !== record.entryId || entry.type !== "message" || entry.message.role !== "toolResult") continue;
    restorePrunedToolResult(entry.message, record.originalContent);
    restored++;
  }
  return restored;
}
