/**
 * prepareCompaction: decides what a compaction summarizes and keeps (session-engine.md §5.4).
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
import { isFromExtension, messageOfEntry } from "@/lib/session/entry-messages";
import { pinnedMessageOf } from "@/lib/session/pins";

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
  /**
   * Arbor §19, only when some pinned entry lies before the cut: those entries (path order), left
   * out of the summarized lists, and the `custom` messages that carry them after the summary.
   */
  pinnedEntryIds?: string[];
  pinnedMessages?: AgentMessage[];
  /**
   * Arbor §19.2, only with `settings.citeSources`: the entry id of each message of
   * `messagesToSummarize` and `turnPrefixMessages` (same order), for the cited prompt.
   */
  sourceIds?: { summarized: string[]; turnPrefix: string[] };
}

export interface PrepareOptions {
  /** Ids pinned now (lib/session/pins `pinnedIds`); none means the contract's result exactly. */
  pinnedIds?: ReadonlySet<string>;
}

export type NothingToCompactReason = "Already compacted" | "Nothing to compact (session too small)";

/**
 * The message an entry contributes to a compaction (session-engine.md §5.4 `messageOf`). A `compaction`
 * entry contributes nothing: its summary reaches the model as `previousSummary` instead.
 */
export function compactionMessageOf(entry: SessionEntry): AgentMessage | undefined {
  return messageOfEntry(entry);
}

function messagesIn(
  entries: SessionEntry[],
  start: number,
  end: number,
  skip?: ReadonlySet<string>,
  ids?: string[],
): AgentMessage[] {
  const out: AgentMessage[] = [];
  for (let i = start; i < end; i++) {
    const entry = entries[i];
    if (entry && skip?.has(entry.id)) continue;
    const message = entry && compactionMessageOf(entry);
    if (message) {
      out.push(message);
      ids?.push(entry.id);
    }
  }
  return out;
}

function lastCompactionIndex(entries: SessionEntry[]): number {
  for (let i = entries.length - 1; i >= 0; i--) if (entries[i]?.type === "compaction") return i;
  return -1;
}

/** pi's `fromHook` counts as `fromExtension` (session-engine.md §1.4). */

/** Pinned entries on the path before `end` that have a message, with their carried messages. */
function pinsOnPath(pathEntries: SessionEntry[], end: number, pinnedIds: ReadonlySet<string>) {
  const found: { index: number; id: string; message: AgentMessage }[] = [];
  for (let i = 0; i < end; i++) {
    const entry = pathEntries[i];
    if (!entry || !pinnedIds.has(entry.id)) continue;
    const message = compactionMessageOf(entry);
    if (message) found.push({ index: i, id: entry.id, message: pinnedMessageOf(entry, message) });
  }
  return found;
}

export function prepareCompaction(
  pathEntries: SessionEntry[],
  settings: CompactionSettings,
  opts: PrepareOptions = {},
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
  // §19: every pinned entry on the path is charged to the kept budget once, up front.
  const pins = opts.pinnedIds?.size ? pinsOnPath(pathEntries, boundaryEnd, opts.pinnedIds) : [];
  const pinSet = pins.length > 0 ? new Set(pins.map((p) => p.id)) : undefined;
  const carriedTokens = pins.reduce((n, p) => n + estimateTokens(p.message), 0);
  const cut = findCutPoint(pathEntries, boundaryStart, boundaryEnd, keep, pinSet && { pinned: pinSet, carriedTokens });
  const firstKept = pathEntries[cut.firstKeptEntryIndex];
  if (!firstKept?.id) return undefined;

  // Steps 8–9 (pinned entries are never summarized: they are carried, §19).
  const historyEnd = cut.isSplitTurn ? cut.turnStartIndex : cut.firstKeptEntryIndex;
  const sourceIds = settings.citeSources ? { summarized: [] as string[], turnPrefix: [] as string[] } : undefined;
  const messagesToSummarize = messagesIn(pathEntries, boundaryStart, historyEnd, pinSet, sourceIds?.summarized);
  const turnPrefixMessages = cut.isSplitTurn
    ? messagesIn(pathEntries, cut.turnStartIndex, cut.firstKeptEntryIndex, pinSet, sourceIds?.turnPrefix)
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

  const carried = pins.filter((p) => p.index < cut.firstKeptEntryIndex);
  const pinExtras =
    carried.length > 0
      ? { pinnedEntryIds: carried.map((p) => p.id), pinnedMessages: carried.map((p) => p.message) }
      : {};

  return {
    ...pinExtras,
    ...(sourceIds ? { sourceIds } : {}),
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
 * Why `prepareCompaction` returned undefined, worded for the manual "Compact" action (session-engine.md §13.4):
 * the last branch entry being a compaction means "Already compacted"; anything else is "too small".
 */
export function nothingToCompactReason(pathEntries: SessionEntry[]): NothingToCompactReason {
  return pathEntries.at(-1)?.type === "compaction" ? "Already compacted" : "Nothing to compact (session too small)";
}
