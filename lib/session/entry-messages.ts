/**
 * The in-memory messages built from non-message entries (spec §1.5: they take
 * `timestamp = Date.parse(entry.timestamp)`), shared by context building (§2), compaction (§5.4),
 * branch summaries (§11.2) and the inspector, so all of them build exactly the same message.
 * Pure: no network, disk or database access.
 */
import type {
  BranchSummaryEntry,
  BranchSummaryMessage,
  CompactionEntry,
  CompactionSummaryMessage,
  CustomMessage,
  CustomMessageEntry,
} from "@/lib/session/types";

export function customMessageOf(entry: CustomMessageEntry): CustomMessage {
  return {
    role: "custom",
    customType: entry.customType,
    content: entry.content,
    display: entry.display,
    details: entry.details,
    timestamp: Date.parse(entry.timestamp),
  };
}

export function branchSummaryMessageOf(entry: BranchSummaryEntry): BranchSummaryMessage {
  return { role: "branchSummary", summary: entry.summary, fromId: entry.fromId, timestamp: Date.parse(entry.timestamp) };
}

export function compactionSummaryMessageOf(entry: CompactionEntry): CompactionSummaryMessage {
  return {
    role: "compactionSummary",
    summary: entry.summary,
    shortSummary: entry.shortSummary,
    tokensBefore: entry.tokensBefore,
    timestamp: Date.parse(entry.timestamp),
  };
}

/** pi writes `fromHook`; it counts as `fromExtension` (spec §1.4). */
export function isFromExtension(entry: { fromExtension?: boolean; fromHook?: boolean }): boolean {
  return entry.fromExtension === true || entry.fromHook === true;
}
