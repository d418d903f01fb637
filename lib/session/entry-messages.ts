/**
 * The in-memory messages built from non-message entries (session-engine.md §1.5: they take
 * `timestamp = Date.parse(entry.timestamp)`), shared by context building (§2), compaction (§5.4),
 * branch summaries (§11.2) and the inspector, so all of them build exactly the same message.
 * Pure: no network, disk or database access.
 *
 * Each entry object gives the SAME message object on every call (memoized per entry), so the
 * per-message caches downstream (convertToLlm, the provider prompt, content hashes) hold across
 * turns; entries are never mutated (a rewrite replaces them), and callers must not mutate the
 * returned messages.
 */
import type {
  AgentMessage,
  BranchSummaryEntry,
  BranchSummaryMessage,
  CompactionEntry,
  CompactionSummaryMessage,
  CustomMessage,
  CustomMessageEntry,
  SessionEntry,
} from "@/lib/session/types";

const memo = new WeakMap<object, object>();

function once<E extends object, M extends object>(entry: E, make: (entry: E) => M): M {
  let message = memo.get(entry) as M | undefined;
  if (!message) {
    message = make(entry);
    memo.set(entry, message);
  }
  return message;
}

export function customMessageOf(entry: CustomMessageEntry): CustomMessage {
  return once(entry, makeCustomMessage);
}

export function branchSummaryMessageOf(entry: BranchSummaryEntry): BranchSummaryMessage {
  return once(entry, makeBranchSummaryMessage);
}

export function compactionSummaryMessageOf(entry: CompactionEntry): CompactionSummaryMessage {
  return once(entry, makeCompactionSummaryMessage);
}

/**
 * The message an entry stands for (session-engine.md §5.4 `messageOf`): a message entry's message,
 * a custom_message or a branch_summary as its message; none for settings, labels, compactions
 * and custom entries. The one definition behind the context (§2 step 6, which also skips an
 * empty branch summary), the compaction's span, pins and the inspector's sources.
 */
export function messageOfEntry(entry: SessionEntry): AgentMessage | undefined {
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

function makeCustomMessage(entry: CustomMessageEntry): CustomMessage {
  return {
    role: "custom",
    customType: entry.customType,
    content: entry.content,
    display: entry.display,
    details: entry.details,
    timestamp: Date.parse(entry.timestamp),
  };
}

function makeBranchSummaryMessage(entry: BranchSummaryEntry): BranchSummaryMessage {
  return { role: "branchSummary", summary: entry.summary, fromId: entry.fromId, timestamp: Date.parse(entry.timestamp) };
}

function makeCompactionSummaryMessage(entry: CompactionEntry): CompactionSummaryMessage {
  return {
    role: "compactionSummary",
    summary: entry.summary,
    shortSummary: entry.shortSummary,
    tokensBefore: entry.tokensBefore,
    timestamp: Date.parse(entry.timestamp),
  };
}

/** pi writes `fromHook`; it counts as `fromExtension` (session-engine.md §1.4). */
export function isFromExtension(entry: { fromExtension?: boolean; fromHook?: boolean }): boolean {
  return entry.fromExtension === true || entry.fromHook === true;
}
