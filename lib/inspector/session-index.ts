import "server-only";
/**
 * The inspector's per-session index, kept beside the read model's cached state (lib/db/read-model):
 * each entry's matchKey (under every form it can have been sent in, pruned originals included),
 * each assistant message's content hash (to find the call that produced it), and the session's
 * summaries. Computed once per entry, when the entry first enters the read model's state and
 * the inspector looks at it; never again per request.
 *
 * Contract:
 * - Keyed by the state's entry list (`SessionTree.getEntries()`): the read model appends to that
 *   array in place and replaces it on a rewrite (prune, undo prune, reload), and never mutates
 *   entry objects. So an index for that array only ever needs the entries appended since, and a
 *   rewrite starts a new one (the old goes with its array: WeakMap).
 * - Pruned tool results are indexed under their kept original too: one query for the pruned
 *   entries an extension meets (none on most requests).
 * - The matchKey of a SENT message is memoized by its content hash (a stored content never
 *   changes), so a recorded list is keyed once, not per request.
 */
import { readPrunedOriginals } from "@/lib/db/model-call-read";
import { memoPerEntry } from "@/lib/db/read-model";
import { contentHashOf, matchKey } from "@/lib/inspector/canonical";
import { type EntryMatchIndex, entryMatchKey, extendEntryMatchIndex, type SummaryLookup } from "@/lib/inspector/sources";
import type { EntryOrder } from "@/lib/inspector/turn-view";
import type { SessionTree } from "@/lib/session/tree";
import type { ImageContent, LlmMessage, PromptSet, SessionEntry, TextContent } from "@/lib/session/types";

export interface InspectorIndex extends SummaryLookup {
  entries: readonly SessionEntry[];
  /** File-order position of an entry (buildTurnView's EntryOrder, with `byId`). */
  position(id: string): number | undefined;
  /** contentHash of an assistant entry's message → that entry's id (the latest such entry). */
  byResponse: ReadonlyMap<string, string>;
  /** compaction and branch_summary entries in file order (empty summaries included). */
  summaryEntries: readonly SessionEntry[];
  matchIndex: EntryMatchIndex;
  /** This order plus one more entry after the last (the preview's pending compaction). */
  with(extra: SessionEntry): EntryOrder;
}

interface Built {
  count: number;
  positions: Map<string, number>;
  byResponse: Map<string, string>;
  summaries: SessionEntry[];
  summaryEntries: SessionEntry[];
  pruned: Map<string, (TextContent | ImageContent)[]>;
  matches: Map<PromptSet, { index: EntryMatchIndex; count: number }>;
}

const built = new WeakMap<readonly SessionEntry[], Built>();
const keyMemos = new WeakMap<PromptSet, (entry: SessionEntry) => string | undefined>();

function keysFor(prompts: PromptSet): (entry: SessionEntry) => string | undefined {
  let memo = keyMemos.get(prompts);
  if (!memo) {
    memo = memoPerEntry((entry) => entryMatchKey(entry, prompts));
    keyMemos.set(prompts, memo);
  }
  return memo;
}

const isPruned = (e: SessionEntry) => e.type === "message" && e.message.role === "toolResult" && e.message.prunedAt !== undefined;

function extend(b: Built, entries: readonly SessionEntry[], to: number): void {
  for (let i = b.count; i < to; i++) {
    const e = entries[i]!;
    b.positions.set(e.id, i);
    if (e.type === "message" && e.message.role === "assistant") b.byResponse.set(contentHashOf(e.message), e.id);
    if (e.type === "compaction" || e.type === "branch_summary") {
      b.summaryEntries.push(e);
      if (e.summary) b.summaries.push(e);
    }
  }
  b.count = Math.max(b.count, to);
}

/** The index of a read-model view's entries (`tree.getEntries()`), extended to their end. */
export async function inspectorIndex(sessionId: string, tree: SessionTree, prompts: PromptSet): Promise<InspectorIndex> {
  const entries = tree.getEntries();
  const byId = tree.getIndex();
  let b = built.get(entries);
  if (!b) {
    b = { count: 0, positions: new Map(), byResponse: new Map(), summaries: [], summaryEntries: [], pruned: new Map(), matches: new Map() };
    built.set(entries, b);
  }
  const to = entries.length;
  if (b.count < to) {
    const pruned: string[] = [];
    for (let i = b.count; i < to; i++) if (isPruned(entries[i]!) && !b.pruned.has(entries[i]!.id)) pruned.push(entries[i]!.id);
    if (pruned.length > 0) for (const [id, original] of await readPrunedOriginals(sessionId, pruned)) b.pruned.set(id, original);
    extend(b, entries, to);
  }
  let match = b.matches.get(prompts);
  if (!match) {
    match = { index: new Map(), count: 0 };
    b.matches.set(prompts, match);
  }
  if (match.count < b.count) {
    extendEntryMatchIndex(match.index, entries.slice(match.count, b.count), prompts, b.pruned, keysFor(prompts));
    match.count = b.count;
  }
  const { positions } = b;
  const position = (id: string) => positions.get(id);
  return {
    entries,
    byId,
    position,
    byResponse: b.byResponse,
    summaries: b.summaries,
    summaryEntries: b.summaryEntries,
    matchIndex: match.index,
    with: (extra) => ({
      byId: { get: (id: string) => (id === extra.id ? extra : byId.get(id)) },
      position: (id) => (id === extra.id ? entries.length : position(id)),
    }),
  };
}

const SENT_KEYS_MAX = 100_000;
const sentKeys = new Map<string, string>();

/** matchKey of a sent message whose content hash is `hash` (memoized: contents never change). */
export function sentMatchKey(message: LlmMessage, hash: string): string {
  let key = sentKeys.get(hash);
  if (key === undefined) {
    key = matchKey(message);
    if (sentKeys.size >= SENT_KEYS_MAX) sentKeys.clear();
    sentKeys.set(hash, key);
  }
  return key;
}
