/**
 * prepareCompaction: decides what a compaction summarizes and keeps (spec §5.4).
 * Pure and synchronous: no network, disk or database access, and no model calls — `compact()`
 * does the summarizing (conventions rule 2). Indices are into `pathEntries`, the root-first
 * current branch.
 */
import { findCutPoint } from "@/lib/compaction/cut-point";
import { addFileListDetails, createFileOps, extractFileOpsFromMessage } from "@/lib/compaction/file-ops";
import type { FileOperations } from "@/lib/compaction/file-ops";
import type { CompactionSettings } from "@/lib/compaction/summarize-types";
import { calculateContextTokens, calculatePromptTokens, estimateTokens, getLastAssistantUsage } from "@/lib/compaction/tokens";
import type { AgentMessage, SessionEntry } from "@/lib/session/types";
import { branchSummaryMessageOf, customMessageOf, isFromExtension } from "@/lib/session/entry-messages";

export type { CompactionSettings } from "@/lib/compaction/summarize-types";
export type { FileOperations } from "@/lib/compaction/file-ops";

export interface CompactionPreparation {
  firstKeptEntryId: string;
  /** Summarized, then dropped from context. */
  messagesToSummarize: AgentMessage[];
  /** Early part of a split turn (summarized separately). */
  turnPrefixMessages: AgentMessage[];
  /** Kept verbatim. */
  recentMessages: AgentMessage[];
  isSplitTurn: boolean;
  tokensBefore: number;
  previousSummary?: string;
  fileOps: FileOperations;
  settings: CompactionSettings;
  /** Arbor extras for previews and the CLI: keepRecentTokens after the ratio rule (step 5)… */
  keepRecentTokens: number;
  /** …and the cut as indices into the given path (step 6). */
  firstKeptEntryIndex: number;
  turnStartIndex: number;
}

export type NothingToCompactReason = "Already compacted" | "Nothing to compact (session too small)";

/**
 * The message an entry contributes to a compaction (spec §5.4 `messageOf`). A `compaction`
 * entry contributes nothing: its summary reaches the model as `previousSummary` instead.
 */
export function compactionMessageOf(entry: SessionEntry): AgentMessage | undefined {
  switch (entry.type) {
    case "message":
      return entry.message;
    case "custom_message":
      return customMessageOf(entry);
    case "branch_summary":
      return branchSummaryMessageOf(entry);
    default:
      return undefined;
  }
}

function messagesIn(entries: SessionEntry[], start: number, end: number): AgentMessage[] {
  const out: AgentMessage[] = [];
  for (let i = start; i < end; i++) {
    const entry = entries[i];
    const message = entry && compactionMessageOf(entry);
    if (message) out.push(message);
  }
  return out;
}

function lastCompactionIndex(entries: SessionEntry[]): number {
  for (let i = entries.length - 1; i >= 0; i--) if (entries[i]?.type === "compaction") return i;
  return -1;
}

/** pi's `fromHook` counts as `fromExtension` (spec §1.4). */

export function prepareCompaction(
  pathEntries: SessionEntry[],
  settings: CompactionSettings,
): CompactionPreparation | undefined {
  // Step 1: nothing new since the last compaction.
  if (pathEntries.at(-1)?.type === "compaction") return undefined;

  // Step 2: only entries after the previous compaction are candidates.
  const prev = lastCompactionIndex(pathEntries);
  const boundaryStart = prev + 1;
  const boundaryEnd = pathEntries.length;

  // Steps 3–4: usage over the WHOLE path; the newest trustworthy report may predate `prev`.
  const lastUsage = getLastAssistantUsage(pathEntries);
  const tokensBefore = lastUsage ? calculateContextTokens(lastUsage) : 0;

  // Step 5: when the provider counts more than our estimate, shrink the kept budget by the same
  // factor so the kept tail is about keepRecentTokens real tokens. Never enlarge it.
  let keep = settings.keepRecentTokens;
  if (lastUsage) {
    let estimated = 0;
    for (let i = boundaryStart; i < boundaryEnd; i++) {
      const entry = pathEntries[i];
      const message = entry && compactionMessageOf(entry);
      if (message) estimated += estimateTokens(message);
    }
    const ratio = estimated > 0 ? calculatePromptTokens(lastUsage) / estimated : 0;
    if (Number.isFinite(ratio) && ratio > 1) keep = Math.max(1, Math.floor(keep / ratio));
  }

  // Steps 6–7: an empty path or unmigrated data (no ids) has nothing to anchor the cut to.
  const cut = findCutPoint(pathEntries, boundaryStart, boundaryEnd, keep);
  const firstKept = pathEntries[cut.firstKeptEntryIndex];
  if (!firstKept?.id) return undefined;

  // Steps 8–9.
  const historyEnd = cut.isSplitTurn ? cut.turnStartIndex : cut.firstKeptEntryIndex;
  const messagesToSummarize = messagesIn(pathEntries, boundaryStart, historyEnd);
  const turnPrefixMessages = cut.isSplitTurn
    ? messagesIn(pathEntries, cut.turnStartIndex, cut.firstKeptEntryIndex)
    : [];
  const recentMessages = messagesIn(pathEntries, cut.firstKeptEntryIndex, boundaryEnd);

  // Step 10.
  const prevEntry = prev >= 0 ? pathEntries[prev] : undefined;
  const prevCompaction = prevEntry?.type === "compaction" ? prevEntry : undefined;
  const previousSummary = prevCompaction?.summary;

  // Step 11: an extension's compaction details have no agreed shape, so they are not trusted.
  const fileOps = createFileOps();
  if (prevCompaction && !isFromExtension(prevCompaction) && prevCompaction.details) {
    addFileListDetails(prevCompaction.details, fileOps);
  }
  for (const message of messagesToSummarize) extractFileOpsFromMessage(message, fileOps);
  if (cut.isSplitTurn) for (const message of turnPrefixMessages) extractFileOpsFromMessage(message, fileOps);

  return {
    firstKeptEntryId: firstKept.id,
    messagesToSummarize,
    turnPrefixMessages,
    recentMessages,
    isSplitTurn: cut.isSplitTurn,
    tokensBefore,
    previousSummary,
    fileOps,
    settings,
    keepRecentTokens: keep,
    firstKeptEntryIndex: cut.firstKeptEntryIndex,
    turnStartIndex: cut.turnStartIndex,
  };
}

/**
 * Why `prepareCompaction` returned undefined, worded for the manual "Compact" action (spec §13.4):
 * the last branch entry being a compaction means "Already compacted"; anything else is "too small".
 */
export function nothingToCompactReason(pathEntries: SessionEntry[]): NothingToCompactReason {
  return pathEntries.at(-1)?.type === "compaction" ? "Already compacted" : "Nothing to compact (session too small)";
}
