import "server-only";
/**
 * Server assembly of the light session page over the read model: the skeleton
 * payload (whole or since an entry count), the contents of chosen entries, the newest chat page,
 * and §16.3 search. Reads go through `readSession` only (lib/db/read-model). The resolved
 * skeleton is kept per version of the entries in a compact table (skeleton-table.ts) that an
 * append extends instead of resolving every entry again; the page's rows text and the meter are
 * kept per version too (`memoPerEntries`; the meter for the last leaf asked), so loading the
 * same session again repeats no pass over its entries' contents (the page's first byte sooner).
 */
import { meterBasis } from "@/lib/chat-protocol/context-meter";
import type { MeterBasis } from "@/lib/types/session-page";
import { memoPerEntries, memoPerEntry, type SessionView } from "@/lib/db";
import { entrySearchText, matchingIds } from "@/lib/session/search-text";
import { stringBytes } from "@/lib/session-view/packed-texts";
import { skeletonLines } from "@/lib/session-view/skeleton-stream";
import { SkeletonTable } from "@/lib/session-view/skeleton-table";
import { encodeRows } from "@/lib/session-view/skeleton-wire";
import { chatFacts, FLAG, type SkeletonEntry } from "@/lib/session-view/tree-skeleton";
import type { SessionEntry } from "@/lib/session/types";
import { CHAT_PAGE, chatPlan } from "./chat-plan";
import { type EntriesPayload, type NextTurnModel, PAGE_SKELETON_MAX, type PagePayload, type SkeletonPayload } from "@/lib/types/session-page";

const searchText = memoPerEntry(entrySearchText);
/** The resolved skeleton of a version of the entries; after appends, the previous table grown. */
const skeletonOf = memoPerEntries(
  (tree, previous?: SkeletonTable) => {
    if (!previous) return SkeletonTable.of(tree.getEntries());
    previous.sync();
    return previous;
  },
  (table) => table.bytes(),
);
/** The page's rows text of a version of the entries (sessions up to PAGE_SKELETON_MAX entries). */
const wholeRowsJson = memoPerEntries(
  (tree) => {
    const table = skeletonOf(tree);
    return JSON.stringify(table.encode(0, table.length));
  },
  stringBytes,
);
const meterSlot = memoPerEntries((): { leafId?: string | null; meter?: MeterBasis } => ({}));
/** The newest chat page's entry ids of a version of the entries, for the last leaf asked. */
const chatSlot = memoPerEntries((): { leafId?: string | null; pageSize?: number; ids?: string[] } => ({}));

/** The context meter of the view's current path (kept for the last leaf asked per entries version). */
function meterOf(view: SessionView): MeterBasis {
  const slot = meterSlot(view.tree);
  const leafId = view.meta.leafId ?? null;
  if (slot.meter && slot.leafId === leafId) return slot.meter;
  // The view's tree is positioned on the meta's leaf; its context comes from the tree's branch
  // memory (branch-memo.ts), which the chat's turns keep warm too. No path: nothing is sent.
  const path = view.tree.getBranch();
  const meter = meterBasis(path, path.length > 0 ? view.tree.buildContext().messages : []);
  Object.assign(slot, { leafId, meter });
  return meter;
}

/** Most ids one entries request may name. */
export const MAX_IDS = 200;
/** Entries stop being added past this many bytes of JSON; the rest come back as `deferred`. */
export const MAX_ENTRIES_BYTES = 4 * 1024 * 1024;

export { PAGE_SKELETON_MAX } from "@/lib/types/session-page";

/** The payload without its rows, and the resolved skeleton (its rows up to the header's count). */
function skeletonParts(view: SessionView, since: number, model?: NextTurnModel) {
  const entries = view.tree.getEntries();
  const from = since > 0 && since <= entries.length ? since : 0;
  const skeleton = skeletonOf(view.tree);
  const header: Omit<SkeletonPayload, "rows"> = {
    session: view.meta,
    rev: view.rev,
    count: entries.length,
    from,
    meter: meterOf(view),
    ...(model ? { model } : {}),
  };
  return { header, skeleton, from };
}

/**
 * The skeleton payload (with `model`, the next turn's model, when given). `since` (an entry count the client already has) gives only the entries
 * appended after it; a `since` beyond the session's count (or 0) gives everything.
 */
export function skeletonPayload(view: SessionView, since = 0, model?: NextTurnModel): SkeletonPayload {
  const { header, skeleton, from } = skeletonParts(view, since, model);
  return { ...header, rows: skeleton.encode(from, header.count) };
}

/**
 * The skeleton as lines (lib/session-view/skeleton-stream.ts): the header, then blocks of rows; the
 * rows the header counts, whatever is appended while the lines are read. `part` = rows `from` to
 * `to` (end excluded, cut at the count; the header's `from` says where they start), for a client
 * that reads a long session in several responses; without it, every row.
 */
export function skeletonStream(view: SessionView, model?: NextTurnModel, part?: { from: number; to: number }): Generator<string> {
  const { header, skeleton } = skeletonParts(view, 0, model);
  const from = Math.min(part?.from ?? 0, header.count);
  const to = Math.min(part?.to ?? header.count, header.count);
  return skeletonLines({ ...header, from }, skeleton.range(from, to));
}

/**
 * The file position of the path's `j`-th entry, found from the newest back and only as far as
 * asked: a parent is normally before its child, so one backward scan over the entries pairs
 * them (a page asks for the path's tail, near the end of the file). A file whose order breaks
 * that falls back to one pass over all entries.
 */
function pathPositions(entries: readonly SessionEntry[], path: readonly SessionEntry[], count: number): (j: number) => number {
  const at: number[] = new Array(path.length);
  let next = path.length - 1;
  let scan = count - 1;
  let all: Map<string, number> | undefined;
  return (j) => {
    for (; next >= j && scan >= 0; scan--) if (entries[scan]!.id === path[next]!.id) at[next--] = scan;
    if (next < j) return at[j]!;
    if (!all) {
      all = new Map();
      for (let i = 0; i < count; i++) all.set(entries[i]!.id, i);
    }
    return all.get(path[j]!.id)!;
  };
}

/**
 * The session page's payload (rows as their JSON text, PagePayload): the whole skeleton up to
 * PAGE_SKELETON_MAX entries; beyond, only the tail of the current path (`pending`): two chat
 * pages of rows, and back to the latest compaction's first kept entry when that compaction is in
 * the tail, so the chat can tell what the model still sees (chat-plan.ts), with the number of
 * user prompts before the tail (`tailTurnsBefore`: the map drawn from the tail numbers its turns).
 */
export function pagePayload(view: SessionView, model?: NextTurnModel, max = PAGE_SKELETON_MAX): PagePayload {
  const { header, skeleton } = skeletonParts(view, 0, model);
  if (header.count <= max) return { ...header, rowsJson: wholeRowsJson(view.tree) };
  const path = view.tree.getBranch();
  const entries = view.tree.getEntries();
  const at = pathPositions(entries, path, header.count);
  let start = path.length;
  for (let shown = 0; start > 0 && shown < 2 * CHAT_PAGE; ) {
    if ((skeleton.flagsAt(at(--start)) & FLAG.notInChat) === 0) shown++;
  }
  for (let i = path.length - 1; i >= start; i--) {
    const entry = entries[at(i)]!;
    if (entry.type !== "compaction") continue;
    const keepId = chatFacts(entry).firstKeptEntryId;
    const kept = path.findIndex((e) => e.id === keepId);
    if (kept >= 0 && kept < start) start = kept;
    break;
  }
  const rows: SkeletonEntry[] = [];
  for (let i = start; i < path.length; i++) rows.push(skeleton.slice(at(i), at(i) + 1)[0]!);
  let tailTurnsBefore = 0;
  for (let i = 0; i < start; i++) {
    const e = path[i]!;
    if (e.type === "message" && e.message.role === "user") tailTurnsBefore++;
  }
  return { ...header, rowsJson: JSON.stringify(encodeRows(rows)), pending: true, tailTurnsBefore };
}

/** The named entries as stored, in request order, within MAX_ENTRIES_BYTES (at least one). */
export function entriesPayload(view: SessionView, ids: readonly string[]): EntriesPayload {
  const out: EntriesPayload = { entries: [], missing: [], deferred: [] };
  let bytes = 0;
  for (const id of ids) {
    const entry = view.tree.getEntry(id);
    if (!entry) {
      out.missing.push(id);
      continue;
    }
    if (out.entries.length > 0 && bytes >= MAX_ENTRIES_BYTES) {
      out.deferred.push(id);
      continue;
    }
    bytes += JSON.stringify(entry).length;
    out.entries.push(entry);
  }
  return out;
}

/** The contents of the newest chat page of the current path (the page's prefetch). */
export function latestChatEntries(view: SessionView, pageSize = CHAT_PAGE): SessionEntry[] {
  // The plan walks the whole path (a 100k-entry session: 10–100 ms): kept per entries version
  // for the last leaf asked, as the meter is.
  const slot = chatSlot(view.tree);
  const leafId = view.meta.leafId ?? null;
  if (!slot.ids || slot.leafId !== leafId || slot.pageSize !== pageSize) {
    const plan = chatPlan(view.tree.getBranch().map(chatFacts));
    Object.assign(slot, { leafId, pageSize, ids: plan.slice(Math.max(0, plan.length - pageSize)).map((item) => item.id) });
  }
  const out: SessionEntry[] = [];
  for (const id of slot.ids!) {
    const entry = view.tree.getEntry(id);
    if (entry) out.push(entry);
  }
  return out;
}

/** §16.3 search over the whole entry text: matching ids, or [] for a query without tokens. */
export function searchSession(view: SessionView, query: string): string[] {
  return matchingIds({ entries: view.tree.getEntries(), labels: view.tree.getLabels(), query, textOf: searchText }) ?? [];
}
