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
 * - Each part is built when first needed: positions and summaries always (no hashing), response
 *   hashes on first use, the match index only for views of sent messages.
 * - The matchKey of a SENT message is memoized by its content hash (a stored content never
 *   changes), so a recorded list is keyed once, not per request.
 */
import { memoPerEntry, readPrunedOriginals } from "@/lib/db";
import { contentHashOf, matchKey } from "@/lib/content-address";
import { type EntryMatchIndex, entryMatchKey, extendEntryMatchIndex, type SummaryLookup } from "@/lib/inspector/sources";
import type { EntryOrder } from "@/lib/inspector/turn-view";
import type { SessionTree } from "@/lib/session/tree/tree";
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
  /** Entries indexed in positions and summaries (cheap: no hashing). */
  count: number;
  positions: Map<string, number>;
  summaries: SessionEntry[];
  summaryEntries: SessionEntry[];
  /** Entries whose assistant message is hashed into byResponse (on first use). */
  responseCount: number;
  byResponse: Map<string, string>;
  /** Entries scanned for pruned originals (only for the match index). */
  prunedCount: number;
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

function extendBase(b: Built, entries: readonly SessionEntry[], to: number): void {
  for (let i = b.count; i < to; i++) {
    const e = entries[i]!;
    b.positions.set(e.id, i);
    if (e.type === "compaction" || e.type === "branch_summary") {
      b.summaryEntries.push(e);
      if (e.summary) b.summaries.push(e);
    }
  }
  b.count = Math.max(b.count, to);
}

function extendResponses(b: Built, entries: readonly SessionEntry[], to: number): Map<string, string> {
  for (let i = b.responseCount; i < to; i++) {
    const e = entries[i]!;
    if (e.type === "message" && e.message.role === "assistant") b.byResponse.set(contentHashOf(e.message), e.id);
  }
  b.responseCount = Math.max(b.responseCount, to);
  return b.byResponse;
}

async function extendMatches(b: Built, sessionId: string, entries: readonly SessionEntry[], to: number, prompts: PromptSet): Promise<EntryMatchIndex> {
  if (b.prunedCount < to) {
    const from = b.prunedCount;
    const pruned: string[] = [];
    for (let i = from; i < to; i++) if (isPruned(entries[i]!) && !b.pruned.has(entries[i]!.id)) pruned.push(entries[i]!.id);
    if (pruned.length > 0) for (const [id, original] of await readPrunedOriginals(sessionId, pruned)) b.pruned.set(id, original);
    b.prunedCount = Math.max(b.prunedCount, to);
  }
  let match = b.matches.get(prompts);
  if (!match) {
    match = { index: new Map(), count: 0 };
    b.matches.set(prompts, match);
  }
  if (match.count < to) {
    extendEntryMatchIndex(match.index, entries.slice(match.count, to), prompts, b.pruned, keysFor(prompts));
    match.count = to;
  }
  return match.index;
}

/**
 * The index of a read-model view's entries (`tree.getEntries()`), extended to their end.
 * `matches: false` skips the match index (the Calls list needs none): `matchIndex` then throws.
 * Response hashes are computed on first use of `byResponse` (a list whose calls all name
 * their entry needs none).
 */
export async function inspectorIndex(
  sessionId: string,
  tree: SessionTree,
  prompts: PromptSet,
  opts: { matches?: boolean } = {},
): Promise<InspectorIndex> {
  const entries = tree.getEntries();
  const byId = tree.getIndex();
  let b = built.get(entries);
  if (!b) {
    b = {
      count: 0,
      positions: new Map(),
      summaries: [],
      summaryEntries: [],
      responseCount: 0,
      byResponse: new Map(),
      prunedCount: 0,
      pruned: new Map(),
      matches: new Map(),
    };
    built.set(entries, b);
  }
  const to = entries.length;
  extendBase(b, entries, to);
  const matchIndex = opts.matches === false ? null : await extendMatches(b, sessionId, entries, to, prompts);
  const { positions } = b;
  const position = (id: string) => positions.get(id);
  const state = b;
  return {
    entries,
    byId,
    position,
    get byResponse() {
      return extendResponses(state, entries, to);
    },
    summaries: b.summaries,
    summaryEntries: b.summaryEntries,
    get matchIndex(): EntryMatchIndex {
      if (!matchIndex) throw new Error("inspectorIndex: the match index was not prepared (matches: false)");
      return matchIndex;
    },
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
