/**
 * Where to cut a branch for compaction (session-engine.md §5.1–5.3).
 * Pure: no network, disk or database access. Indices are into the `entries` array passed in
 * (a root-first path); `end` bounds are exclusive.
 *
 * Linear time: the token walk stops at the first index that reaches the budget, the matching
 * cut point is found by binary search, and the turn-start walk runs once.
 */
import { estimateTokens } from "@/lib/compaction/tokens";
import type { SessionEntry } from "@/lib/session/types";

export interface CutPointResult {
  /** First entry kept verbatim. */
  firstKeptEntryIndex: number;
  /** Start of the turn the cut splits, or -1 when the cut is at a user message / no turn start. */
  turnStartIndex: number;
  isSplitTurn: boolean;
}

/**
 * Message roles a cut may land on. toolResult is absent: it must stay with its tool call.
 * pythonExecution and fileMention are not cut points; `custom` is, deliberately (§18.3).
 */
const CUT_ROLES: ReadonlySet<string> = new Set([
  "user",
  "assistant",
  "bashExecution",
  "custom",
  "hookMessage",
  "branchSummary",
  "compactionSummary",
]);

function messageRole(entry: SessionEntry | undefined): string | undefined {
  return entry?.type === "message" ? entry.message?.role : undefined;
}

function isCutPoint(entry: SessionEntry | undefined): boolean {
  if (!entry) return false;
  if (entry.type === "branch_summary" || entry.type === "custom_message") return true;
  const role = messageRole(entry);
  return role !== undefined && CUT_ROLES.has(role);
}

/** Ascending indices in `[start, end)` where a cut may land (session-engine.md §5.1). */
export function findValidCutPoints(entries: SessionEntry[], start: number, end: number): number[] {
  const points: number[] = [];
  for (let i = Math.max(0, start); i < Math.min(end, entries.length); i++) {
    if (isCutPoint(entries[i])) points.push(i);
  }
  return points;
}

/** Walks down from `idx` to `start` for the entry that opens the turn (session-engine.md §5.2); -1 if none. */
export function findTurnStartIndex(entries: SessionEntry[], idx: number, start: number): number {
  for (let i = idx; i >= start; i--) {
    const entry = entries[i];
    if (!entry) continue;
    if (entry.type === "branch_summary" || entry.type === "custom_message") return i;
    const role = messageRole(entry);
    if (role === "user" || role === "bashExecution") return i;
  }
  return -1;
}

/** Smallest element of ascending `points` that is >= `min`, or undefined. */
function firstAtOrAfter(points: number[], min: number): number | undefined {
  let lo = 0;
  let hi = points.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((points[mid] ?? Number.POSITIVE_INFINITY) < min) lo = mid + 1;
    else hi = mid;
  }
  return points[lo];
}

/**
 * Pins (Arbor, session-engine.md §19): entries that are carried verbatim whatever the cut. Their tokens are
 * charged up front (`carriedTokens`) and the walk skips them, so each is counted once in the
 * kept budget whether it ends up before or after the cut.
 */
export interface CutPointPins {
  pinned: ReadonlySet<string>;
  carriedTokens: number;
}

/**
 * Keeps roughly the newest `keepRecentTokens` (session-engine.md §5.3). Only `message` entries are counted;
 * custom_message and branch_summary tokens are not (oh-my-pi parity, §18). Without `pins` (or
 * with an empty set) the result is exactly §5.3's.
 */
export function findCutPoint(
  entries: SessionEntry[],
  startIndex: number,
  endIndex: number,
  keepRecentTokens: number,
  pins?: CutPointPins,
): CutPointResult {
  const cutPoints = findValidCutPoints(entries, startIndex, endIndex);
  const first = cutPoints[0];
  if (first === undefined) return { firstKeptEntryIndex: startIndex, turnStartIndex: -1, isSplitTurn: false };

  // Default: keep everything from the first cut point.
  let cutIndex = first;
  const pinned = pins && pins.pinned.size > 0 ? pins : undefined;
  let acc = pinned ? pinned.carriedTokens : 0;
  for (let i = endIndex - 1; i >= startIndex; i--) {
    const entry = entries[i];
    if (entry?.type !== "message") continue;
    if (!pinned?.pinned.has(entry.id)) acc += estimateTokens(entry.message);
    if (acc >= keepRecentTokens) {
      // No cut point at or after i: the default stays (the budget is spent inside one region).
      cutIndex = firstAtOrAfter(cutPoints, i) ?? cutIndex;
      break;
    }
  }

  // Settings changes, labels and other non-message entries just before the cut travel with it.
  while (cutIndex > startIndex) {
    const prev = entries[cutIndex - 1];
    if (!prev || prev.type === "compaction" || prev.type === "message") break;
    cutIndex--;
  }

  const isUser = messageRole(entries[cutIndex]) === "user";
  const turnStartIndex = isUser ? -1 : findTurnStartIndex(entries, cutIndex, startIndex);
  // A cut at a custom_message / branch_summary / bashExecution is its own turn start, so this is
  // "split" with an empty prefix; compact() then takes the non-split path (session-engine.md §5.3).
  return { firstKeptEntryIndex: cutIndex, turnStartIndex, isSplitTurn: !isUser && turnStartIndex !== -1 };
}
