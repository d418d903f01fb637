/**
 * The bounded window of a turn's messages that the inspector sends with the turn, and the pages
 * it loads on demand for the rest. Pure: no network, disk or database access.
 *
 * Why: a session that never compacted sends up to ~100k messages per turn; shipping every one
 * with its content made opening the inspector send ~100 MB of JSON and render ~100k rows. As the
 * diff does (diff.ts boundDiff), the turn carries a bounded list plus the exact count.
 *
 * Contract:
 * - A turn of at most MESSAGE_WINDOW_MAX messages is sent whole (small turns are unchanged).
 * - A longer one carries its first and its last MESSAGE_PAGE_SIZE messages, in order; every
 *   message keeps its `index` in the whole list, so the gap between them is known.
 * - Everything computed over the whole list (per-message tokens, `kept` / `firstKept`, segments,
 *   estimatedTokens) is computed BEFORE windowing, on the server, so it stays exact.
 * - Pages (`pageOf`) are plain slices of the whole list: concatenated in order they give it back.
 */
import type { InspectedMessage, TurnView } from "@/lib/types/inspector";

/** Messages in one page (the head, the tail, and each page loaded on demand). */
export const MESSAGE_PAGE_SIZE = 200;
/** The most messages one page request may ask for. */
export const MESSAGE_PAGE_MAX = 1000;
/** A turn of at most this many messages is sent whole. */
export const MESSAGE_WINDOW_MAX = 2 * MESSAGE_PAGE_SIZE;

/** The first and last `page` messages of `all`, or all of them when that is no more than 2 × page. */
export function windowMessages<T>(all: readonly T[], page = MESSAGE_PAGE_SIZE): T[] {
  if (all.length <= 2 * page) return all.slice();
  return [...all.slice(0, page), ...all.slice(all.length - page)];
}

/**
 * `view` as sent to the browser: its messages windowed (`messageCount` the whole count), and the
 * preview's pruned entry ids cut to the first `page` (`count` keeps them all: a 100k-entry
 * session's preview would prune ~38k tool results, ~420 KB of ids the inspector only counts).
 * The same object when nothing is cut.
 */
export function windowTurn(view: TurnView, page = MESSAGE_PAGE_SIZE): TurnView {
  const pruning = view.pending?.pruning;
  const cutPruning = pruning !== null && pruning !== undefined && pruning.entryIds.length > page;
  if (view.messages.length <= 2 * page && !cutPruning) return view;
  const shown: TurnView = { ...view, messageCount: view.messages.length, messages: windowMessages(view.messages, page) };
  if (cutPruning) shown.pending = { ...view.pending!, pruning: { ...pruning, entryIds: pruning.entryIds.slice(0, page) } };
  return shown;
}

/** Messages [offset, offset + limit) of the whole list (fewer at its end). */
export function pageOf<T>(all: readonly T[], offset: number, limit: number): T[] {
  return all.slice(offset, offset + limit);
}

/** What a windowed list leaves out: indices [from, to) of the whole list, or null when nothing is. */
export function hiddenRange(messages: readonly Pick<InspectedMessage, "index">[], messageCount: number): { from: number; to: number } | null {
  if (messages.length >= messageCount) return null;
  for (let i = 0; i < messages.length; i++) {
    const expected = i === 0 ? 0 : messages[i - 1]!.index + 1;
    if (messages[i]!.index !== expected) return { from: expected, to: messages[i]!.index };
  }
  return { from: messages.at(-1) ? messages.at(-1)!.index + 1 : 0, to: messageCount };
}

/** The window and the pages loaded into its gap, as one list in index order (a message loaded twice counts once). */
export function mergeMessages<T extends Pick<InspectedMessage, "index">>(window: readonly T[], loaded: readonly T[]): T[] {
  if (loaded.length === 0) return window.slice();
  const byIndex = new Map<number, T>();
  for (const m of window) byIndex.set(m.index, m);
  for (const m of loaded) if (!byIndex.has(m.index)) byIndex.set(m.index, m);
  return [...byIndex.values()].sort((a, b) => a.index - b.index);
}

/** Why a page request cannot be answered, in words; null when `offset` / `limit` fit a list of `total`. */
export function pageProblem(offset: number, limit: number, total: number): string | null {
  if (!Number.isInteger(limit) || limit < 1 || limit > MESSAGE_PAGE_MAX) return `limit must be a whole number from 1 to ${MESSAGE_PAGE_MAX}`;
  if (!Number.isInteger(offset) || offset < 0) return "offset must be a whole number, 0 or more";
  if (offset > 0 && offset >= total) {
    return `offset ${offset} is past the end of this turn: it sent ${total} ${total === 1 ? "message" : "messages"} (offsets 0 to ${Math.max(0, total - 1)})`;
  }
  return null;
}
