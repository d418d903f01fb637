import "server-only";
/**
 * Server assembly of the light session page (issue #12) over the read model: the skeleton
 * payload (whole or since an entry count), the contents of chosen entries, the newest chat page,
 * and §16.3 search. Reads go through `readSession` only (lib/db/read-model), and every per-entry
 * computation through `memoPerEntry`, so with the real read model each is done once per entry;
 * the whole skeleton, the page's rows text and the meter are kept per version of the entries
 * (`memoPerEntries`; the meter for the last leaf asked), so loading the same session again
 * repeats no pass over its entries (issue #12: the page's first byte).
 */
import { type MeterBasis, meterBasis } from "@/lib/chat-protocol/context-meter";
import { memoPerEntries, memoPerEntry, type SessionView } from "@/lib/db";
import { entrySearchText, matchingIds } from "@/lib/session/search-text";
import { skeletonLines } from "@/lib/session/skeleton-stream";
import { encodeRows } from "@/lib/session/skeleton-wire";
import { FLAG, mayCallTools, resolveSkeleton, type SkeletonEntry, skeletonFacts, toolCallTexts } from "@/lib/session/tree-skeleton";
import type { SessionEntry } from "@/lib/session/types";
import { CHAT_PAGE, chatPlan } from "./chat-plan";
import { type EntriesPayload, type NextTurnModel, PAGE_SKELETON_MAX, type PagePayload, type SkeletonPayload } from "./types";

// Tool-call texts are remembered for assistant entries only: a remembered empty list per other
// entry cost ~185 bytes each (18.5 MB of a 100k-entry session's heap).
const callsOf = memoPerEntry(toolCallTexts);
const memo = { facts: memoPerEntry(skeletonFacts), calls: (e: SessionEntry) => (mayCallTools(e) ? callsOf(e) : toolCallTexts(e)) };
const searchText = memoPerEntry(entrySearchText);
/**
 * Heap kept per entry once a session's skeleton is resolved: the row, the per-entry facts and
 * tool-call texts it was resolved from (remembered as long as the entries live) and their weak
 * maps' slots. Measured by bench/read-model-child.ts: 49.5 MB over a cached 100k-entry session.
 */
const SKELETON_ROW_BYTES = 480;
const skeletonOf = memoPerEntries(
  (tree) => resolveSkeleton(tree.getEntries(), memo),
  (rows) => rows.length * SKELETON_ROW_BYTES,
);
// A row text holding any non-Latin-1 character is stored two bytes a character.
const wholeRowsJson = memoPerEntries(
  (tree) => JSON.stringify(encodeRows(skeletonOf(tree))),
  (json) => json.length * 2,
);
const meterSlot = memoPerEntries((): { leafId?: string | null; meter?: MeterBasis } => ({}));

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

export { PAGE_SKELETON_MAX } from "./types";

/** The payload without its rows, and the resolved skeleton rows it covers. */
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
  return { ...header, rows: encodeRows(from === 0 ? skeleton : skeleton.slice(from)) };
}

/** The whole skeleton as lines (lib/session/skeleton-stream.ts): the header, then blocks of rows. */
export function skeletonStream(view: SessionView, model?: NextTurnModel): Generator<string> {
  const { header, skeleton } = skeletonParts(view, 0, model);
  return skeletonLines(header, skeleton);
}

/**
 * The session page's payload (rows as their JSON text, PagePayload): the whole skeleton up to
 * PAGE_SKELETON_MAX entries; beyond, only the tail of the current path (`pending`): two chat
 * pages of rows, and back to the latest compaction's first kept entry when that compaction is in
 * the tail, so the chat can tell what the model still sees (chat-plan.ts).
 */
export function pagePayload(view: SessionView, model?: NextTurnModel, max = PAGE_SKELETON_MAX): PagePayload {
  const { header, skeleton } = skeletonParts(view, 0, model);
  if (skeleton.length <= max) return { ...header, rowsJson: wholeRowsJson(view.tree) };
  const path = view.tree.getBranch();
  const rowOf = new Map<string, SkeletonEntry>();
  const onPath = new Set(path.map((e) => e.id));
  for (const s of skeleton) if (onPath.has(s.id)) rowOf.set(s.id, s);
  const rows = path.map((e) => rowOf.get(e.id)!);
  let start = rows.length;
  for (let shown = 0; start > 0 && shown < 2 * CHAT_PAGE; ) if ((rows[--start]!.flags & FLAG.notInChat) === 0) shown++;
  for (let i = rows.length - 1; i >= start; i--) {
    if (rows[i]!.type !== "compaction") continue;
    const kept = rows.findIndex((r) => r.id === rows[i]!.firstKeptEntryId);
    if (kept >= 0 && kept < start) start = kept;
    break;
  }
  return { ...header, rowsJson: JSON.stringify(encodeRows(rows.slice(start))), pending: true };
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
  const plan = chatPlan(view.tree.getBranch().map(memo.facts));
  const out: SessionEntry[] = [];
  for (const item of plan.slice(Math.max(0, plan.length - pageSize))) {
    const entry = view.tree.getEntry(item.id);
    if (entry) out.push(entry);
  }
  return out;
}

/** §16.3 search over the whole entry text: matching ids, or [] for a query without tokens. */
export function searchSession(view: SessionView, query: string): string[] {
  return matchingIds({ entries: view.tree.getEntries(), labels: view.tree.getLabels(), query, textOf: searchText }) ?? [];
}
