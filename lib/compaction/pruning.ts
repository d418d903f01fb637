/**
 * Tool-output pruning (spec §8).
 * Pure: no network, disk or database access. It mutates the tool-result messages of the
 * entries it is given, in place, as the spec requires; it also returns each pruned result's
 * original content so the caller can persist it and undo the prune later.
 *
 * Contract: walk newest → oldest over toolResult messages; roughly the newest `protectTokens`
 * of tool output and every result of a protected tool stay intact; older results are replaced
 * by a one-line notice, but only if that saves at least `minimumSavings` tokens overall —
 * otherwise nothing changes at all.
 */
import { estimateTokens } from "@/lib/compaction/tokens";
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

/** The text a pruned result is replaced with (spec §8 step 6). */
export function pruneNotice(tokens: number): string {
  return `[Output truncated - ${tokens} tokens]`;
}

export function pruneToolOutputs(
  entries: SessionEntry[],
  config: PruneConfig = DEFAULT_PRUNE_CONFIG,
  now: number = Date.now(),
): PruneResult {
  const protectedTools = new Set(config.protectedTools);
  const candidates: { index: number; message: ToolResultMessage; tokens: number }[] = [];
  let acc = 0;
  let tokensSaved = 0;

  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i];
    if (entry?.type !== "message" || entry.message.role !== "toolResult") continue;
    const message = entry.message;
    const tokens = estimateTokens(message);
    // Already-pruned and protected results still count towards the protected window.
    const keep = message.prunedAt !== undefined || acc < config.protectTokens || protectedTools.has(message.toolName);
    acc += tokens;
    if (keep) continue;
    candidates.push({ index: i, message, tokens });
    tokensSaved += Math.max(0, tokens - Math.ceil(pruneNotice(tokens).length / 4));
  }

  if (candidates.length === 0 || tokensSaved < config.minimumSavings) {
    return { prunedCount: 0, tokensSaved: 0, pruned: [] };
  }

  const pruned: PrunedToolResult[] = [];
  // Reverse so the report is in entry order; one `now` for every candidate (spec §8 step 8).
  for (const { index, message, tokens } of candidates.reverse()) {
    pruned.push({ entryId: entries[index]?.id ?? "", index, originalContent: message.content });
    message.content = [{ type: "text", text: pruneNotice(tokens) }];
    message.prunedAt = now;
  }
  return { prunedCount: pruned.length, tokensSaved, pruned };
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
