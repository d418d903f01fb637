import "server-only";
/**
 * The per-session read model: a bounded in-process cache of each session's COMMITTED entries as
 * an engine SessionTree, kept current by version checks instead of reloading per request.
 *
 * Versions (sessions.rev / rewrite_rev, migration 20261221000000_session_revisions): every change to a session's
 * entries or leaf bumps `rev`; a change that rewrites existing entries in place (prune, undo
 * prune, a bulk write) also sets `rewrite_rev` to its rev.
 *
 * `readSession` = ONE indexed query for the meta row, then:
 * - cached rev = meta rev: nothing else is read;
 * - only appends since (rewrite_rev ≤ cached rev): read seq ∈ [cached count, meta.entry_count)
 *   and add them (SessionTree.addCommitted); the statement also returns rewrite_rev, so a prune
 *   that lands meanwhile is seen and leads to a reload instead;
 * - no cache: read every entry below the meta's entry_count, in parallel parts that each check
 *   rewrite_rev (queries.ts readAllAt);
 * - else (a rewrite, or parts that saw one): reload meta + entries in one snapshot.
 *
 * Invariants (why a stale cache can never produce a wrong context):
 * 1. A cached state {tree, rev, count} is exactly the database's entries at `rev` (count =
 *    entry_count at rev). It is only ever built from database reads with that rev, or from a
 *    state at rev−1 plus the entries of the write that returned rev (`noteCommitted`,
 *    `noteRewritten`): a write whose returned rev is not exactly the next one is ignored and
 *    the next read catches up.
 * 2. Only committed data enters: the agent writes through its own fork of the tree
 *    (SessionTree.fork), and the cache takes a JSON copy of what the store committed, never the
 *    agent's objects. A failed commit reports nothing, so the cache stays at the last commit.
 * 3. Entry objects in the cache are never mutated (in tests they are deep-frozen to prove it);
 *    a rewrite (prune) builds a new state with new entry objects, so views handed out earlier
 *    keep theirs. Appends are added to the shared tree: an older view may show entries
 *    committed after its rev, never fewer and never uncommitted ones.
 * 4. Several processes: each has its own cache and checks the database's rev on every read.
 *
 * The view's tree is READ-ONLY for callers (SessionTree.view: appenders throw); writers fork it.
 */
import { env } from "@/lib/env";
import type { SessionTree } from "@/lib/session/tree/tree";
import type { SessionEntry } from "@/lib/session/types";
import { toPgJson } from "../pg-json";
import type { SessionMeta } from "../store/session-rows";
import { ByteLru } from "@/lib/byte-lru";
import { type MetaExtra, readAllAt, readNewEntries, readVersionedMeta, readWholeSession, type VersionedMeta } from "./queries";

export type { MetaExtra } from "./queries";
import { type CachedSession, charged, copyCommitted, grow, newState, promptCharged, rewrite } from "./state";

export interface SessionView {
  /** Fresh from the database on every call (one indexed query). */
  meta: SessionMeta;
  /**
   * Every committed entry, positioned on meta.leafId. READ-ONLY for callers: never append to
   * it, never mutate its entry objects.
   */
  tree: SessionTree;
  /** The session's data version this view reflects. */
  rev: number;
  /** The `extra` column read with the meta (readSession's `extra`), from the same statement. */
  extra?: unknown;
}

const DEFAULT_CACHE_MB = 256;

/**
 * The read model's budget in bytes (ARBOR_CACHE_MB, default 256 MB; 0 = nothing cached). The
 * process's other caches take their shares of it from here.
 */
export function cacheBudgetBytes(): number {
  return (env.ARBOR_CACHE_MB ?? DEFAULT_CACHE_MB) * 1024 * 1024;
}

const cache = new ByteLru<CachedSession>(cacheBudgetBytes());
const stats = { hits: 0, catchUps: 0, reloads: 0, coldLoads: 0, noted: 0 };

/** The session whose cached tree owns an entry array, so data derived from it is charged there. */
const owners = new WeakMap<readonly SessionEntry[], string>();

/** Caches `state` for `sessionId` (every write of the cache goes through here). */
function store(sessionId: string, state: CachedSession): void {
  owners.set(state.tree.getEntries(), sessionId);
  cache.set(sessionId, state);
}

/**
 * Adds `delta` bytes of derived data to the cached session whose tree owns `entries`, while that
 * tree is still the cached one (a state replaced meanwhile took its own charges with it).
 */
function charge(entries: readonly SessionEntry[], delta: number): void {
  const sessionId = owners.get(entries);
  if (sessionId === undefined || delta === 0) return;
  const state = cache.peek(sessionId);
  if (state?.tree.getEntries() !== entries) return;
  cache.set(sessionId, charged(state, delta));
}

/**
 * Counts `bytes` of request texts a chat call made for the session's messages and keeps with
 * them (lib/llm/spliced-prompt.ts) against the cache's budget, while the session is cached. They
 * live as long as those messages, i.e. as the cached tree: an eviction releases both. A turn's
 * own new messages are counted again once the cache holds their committed copies (an
 * overestimate of one turn's messages; the budget errs towards evicting).
 */
export function chargePromptMemory(sessionId: string, bytes: number): void {
  const state = cache.peek(sessionId);
  if (state && bytes > 0) cache.set(sessionId, promptCharged(state, bytes));
}

/** Resizes the cache (tests, bench); `clear` empties it, as a restart would. */
export function configureReadModel(input: { maxBytes?: number; clear?: boolean }): void {
  if (input.clear) cache.clear();
  if (input.maxBytes !== undefined) cache.resize(input.maxBytes);
}

export function readModelStats(): { sessions: number; bytes: number; limit: number } & typeof stats {
  return { sessions: cache.size, bytes: cache.bytes, limit: cache.limit, ...stats };
}

/** The cached state of a session, or undefined (tests). Does not count as a use. */
export function peekCachedSession(sessionId: string): { rev: number; count: number } | undefined {
  const s = cache.peek(sessionId);
  return s ? { rev: s.rev, count: s.count } : undefined;
}

function viewOf(v: VersionedMeta, state: CachedSession): SessionView {
  return { meta: v.meta, tree: state.tree.view(v.meta.leafId, v.meta.header), rev: v.rev, ...("extra" in v ? { extra: v.extra } : {}) };
}

async function reload(sessionId: string, extra?: MetaExtra): Promise<SessionView> {
  stats.reloads++;
  const whole = await readWholeSession(sessionId, extra);
  return admitLoaded(sessionId, whole, whole);
}

function admitLoaded(sessionId: string, v: VersionedMeta, loaded: { entries: SessionEntry[]; chars: number }): SessionView {
  const state = newState(v.meta.header, loaded.entries, { rev: v.rev, chars: loaded.chars });
  const current = cache.peek(sessionId);
  if (!current || current.rev < state.rev) store(sessionId, state);
  return viewOf(v, state);
}

/** A cold cache: every entry at the version just read, in parallel parts; else a snapshot reload. */
async function loadCold(sessionId: string, v: VersionedMeta, extra?: MetaExtra): Promise<SessionView> {
  const loaded = await readAllAt(sessionId, v);
  if (!loaded) return reload(sessionId, extra);
  stats.coldLoads++;
  return admitLoaded(sessionId, v, loaded);
}

/**
 * Throws NotFoundError (lib/db/errors) for an unknown session; a soft-deleted one still reads
 * (meta.deletedAt). `extra` (queries.ts) adds the request's own data to the meta statement, so
 * a cache hit stays ONE statement; the view's `extra` comes from the same statement as its meta.
 */
export async function readSession(input: { sessionId: string; extra?: MetaExtra }): Promise<SessionView> {
  const { sessionId, extra } = input;
  let v = await readVersionedMeta(sessionId, extra);
  for (let attempt = 0; attempt < 3; attempt++) {
    const state = cache.get(sessionId);
    if (!state) return loadCold(sessionId, v, extra);
    if (state.rev === v.rev) {
      stats.hits++;
      return viewOf(v, state);
    }
    if (state.rev > v.rev) {
      // This process committed (or caught up) past the meta just read: read the meta again.
      v = await readVersionedMeta(sessionId, extra);
      continue;
    }
    if (v.rewriteRev > state.rev || v.meta.entryCount < state.count) break;
    if (v.meta.entryCount === state.count) {
      // Only the leaf moved (no rewrite up to the meta's rev, no new entries): nothing to read.
      stats.catchUps++;
      const next = grow(state, [], { rev: v.rev, chars: 0 });
      store(sessionId, next);
      return viewOf(v, next);
    }
    const added = await readNewEntries(sessionId, { from: state.count, to: v.meta.entryCount });
    if (added.rewriteRev === null || added.rewriteRev > state.rev) break;
    if (cache.peek(sessionId) !== state) continue; // another request moved the state meanwhile
    if (added.entries.length !== v.meta.entryCount - state.count) break;
    stats.catchUps++;
    const next = grow(state, added.entries, { rev: v.rev, chars: added.chars });
    store(sessionId, next);
    return viewOf(v, next);
  }
  return reload(sessionId, extra);
}

/**
 * After a successful commit that returned `rev`: adds (a JSON copy of) its entries to the cached
 * state when that state is exactly at rev − 1. Otherwise nothing: the next read catches up.
 */
export function noteCommitted(input: { sessionId: string; rev: number; entries: readonly SessionEntry[] }): void {
  const state = cache.peek(input.sessionId);
  if (!state || state.rev !== input.rev - 1) return;
  stats.noted++;
  const { entries, chars } = copyCommitted(input.entries, toPgJson);
  store(input.sessionId, grow(state, entries, { rev: input.rev, chars }));
}

/**
 * After a successful in-place rewrite (prune / undo prune) that returned `rev`: a NEW state whose
 * rewritten entries are new objects (copies of what the store returned), when the cached state
 * is exactly at rev − 1; otherwise the state is dropped (the next read reloads).
 */
export function noteRewritten(input: { sessionId: string; rev: number | null; entries: readonly SessionEntry[] }): void {
  if (input.rev === null) return;
  const state = cache.peek(input.sessionId);
  if (!state) return;
  if (state.rev !== input.rev - 1) {
    cache.delete(input.sessionId);
    return;
  }
  stats.noted++;
  const { entries } = copyCommitted(input.entries, toPgJson);
  store(input.sessionId, rewrite(state, entries, input.rev));
}

/**
 * Memo keyed by entry object (WeakMap): derived per-entry data (row texts, token counts, hashes,
 * source keys) is computed once per entry; valid because read-model entry objects are never
 * mutated (a prune replaces the entry object).
 */
export function memoPerEntry<T>(fn: (entry: SessionEntry) => T): (entry: SessionEntry) => T {
  const memo = new WeakMap<SessionEntry, T>();
  return (entry) => {
    const hit = memo.get(entry);
    if (hit !== undefined || memo.has(entry)) return hit as T;
    const value = fn(entry);
    memo.set(entry, value);
    return value;
  };
}

/**
 * Memo keyed by a view's entries (their array and count): whole-session data derived from the
 * entries alone (the skeleton, its wire text) is computed once per version of them, not per
 * request. Valid for read-model views because a cached state's entry array only ever grows by
 * appends (a new count) and a rewrite (prune) builds a new tree with an array of its own. `fn`
 * must not read the view's leaf or header, which a view sets for itself. `bytesOf` estimates a
 * value's heap cost: it is charged to the cached session that owns the entries (the LRU's bound
 * counts it; a recomputed value replaces its predecessor's charge), and is released with it.
 * `previous` is the value computed for an earlier count of the same entries (so only appends
 * came since): `fn` may extend it (even in place) instead of starting over; `bytesOf` is asked
 * again either way.
 */
export function memoPerEntries<T>(fn: (tree: SessionTree, previous?: T) => T, bytesOf?: (value: T) => number): (tree: SessionTree) => T {
  const memo = new WeakMap<readonly SessionEntry[], { count: number; value: T; bytes: number }>();
  return (tree) => {
    const entries = tree.getEntries();
    const hit = memo.get(entries);
    if (hit && hit.count === entries.length) return hit.value;
    const value = hit && hit.count < entries.length ? fn(tree, hit.value) : fn(tree);
    const bytes = bytesOf ? bytesOf(value) : 0;
    memo.set(entries, { count: entries.length, value, bytes });
    charge(entries, bytes - (hit?.bytes ?? 0));
    return value;
  };
}
