import "server-only";
/**
 * The full-text rows of a session's entries (`entry_search`, migration 20270103000000): their
 * contract, and the set-based build of the rows a session lacks. An import writes its own rows in
 * its transaction (lib/db/import/search-rows.ts); this build serves sessions imported before it
 * did (and `searchRows: false`, the bench's A/B).
 *
 * Contract:
 * - `sessions.search_seq` = how far a session is indexed: every entry with seq < search_seq and
 *   a non-null `text` has its row `to_tsvector('simple', text)` in entry_search. It only grows.
 * - Search (lib/db/search/session-list.ts) reads entry_search for seq < search_seq and computes the
 *   same to_tsvector on the fly for the entries after it, so a search returns the same results
 *   whether or not the index is built yet; only its speed differs.
 * - Who indexes: a commit to a fully indexed session, in its own statement (lib/db/store/commit-sql.ts);
 *   a fork, in its transaction (`indexWholeSession`); an import, in its transaction
 *   (lib/db/import/search-rows.ts). `resumeSearchIndexes` schedules the build of any session
 *   still short of its rows (imported before imports wrote them, or a build interrupted): search
 *   calls it.
 * - `buildSearchIndex` works in chunks of SEARCH_CHUNK entries, each its own short READ COMMITTED
 *   transaction (the sessions row is locked only for the UPDATE of search_seq, so commits are
 *   not held up), SEARCH_WORKERS chunks at a time on as many connections: to_tsvector is the
 *   server's CPU (the 30 MB session of bench/history.ts: 12 MB of text, 2.3–2.9 s on one core),
 *   so the chunks spread over the server's cores. A chunk's rows may commit before an earlier chunk's;
 *   search_seq only ever advances over the finished prefix, and rows past it are harmless (they
 *   hold the same to_tsvector the search computes on the fly there). Cancelling through
 *   `signal` stops between chunks and keeps what is done. Two builders of one session are
 *   harmless (ON CONFLICT DO NOTHING, search_seq = GREATEST).
 * - `scheduleSearchIndex` (resumeSearchIndexes) queues builds: at most two sessions are built at
 *   once in a process, so thousands of sessions short of their rows do not open thousands of
 *   builds; `searchIndexIdle` resolves once the queue is empty.
 */
import os from "node:os";
import { getDb } from "../client";
import type { Sql } from "../store/sql";

/** Entries indexed per transaction (a 100k-entry session: 20 steps). */
export const SEARCH_CHUNK = 5_000;

/** Chunks of one session built at once, one connection each (at most 3: the app's pool has 10). */
export const SEARCH_WORKERS = Math.max(1, Math.min(3, os.availableParallelism()));

/** Sessions the queue builds at once: with SEARCH_WORKERS chunks each, at most 6 of the pool's 10 connections. */
const QUEUED_AT_ONCE = 2;

export interface SearchIndexProgress {
  indexed: number;
  total: number;
}

/**
 * The full-text rows of session $1's entries with seq in [$2, $3), as the contract above defines
 * them: what this build and an import's own rows (lib/db/import/search-rows.ts) both insert.
 */
export const SEARCH_ROWS_SQL = `SELECT session_id, seq, to_tsvector('simple', text) FROM entries
  WHERE session_id = $1 AND seq >= $2 AND seq < $3 AND text IS NOT NULL`;

/**
 * entry_search has no foreign key (migration 20270127000001_entry_search_unchecked): the
 * session's row is locked for the statement instead, so a session deleted meanwhile gets no rows
 * (its delete waits, and its trigger then deletes them; one already gone yields none).
 */
const INSERT_SQL = `INSERT INTO entry_search (session_id, seq, search)
  ${SEARCH_ROWS_SQL}
    AND EXISTS (SELECT 1 FROM sessions WHERE id = $1 FOR KEY SHARE)
  ON CONFLICT DO NOTHING`;
const ADVANCE_SQL = "UPDATE sessions SET search_seq = GREATEST(search_seq, $2::int) WHERE id = $1";
/** The GIN index's pending-list merge sorts in work_mem: 64 MB merges a chunk's rows in one pass (a third faster than the default 4 MB). */
export const WORK_MEM_SQL = "SET LOCAL work_mem = '64MB'";

/** Indexes every entry of a session written in the caller's transaction (fork); `count` = its entries. */
export async function indexWholeSession(sql: Sql, input: { sessionId: string; count: number }): Promise<void> {
  await sql.query(INSERT_SQL, [input.sessionId, 0, input.count]);
  await sql.query(ADVANCE_SQL, [input.sessionId, input.count]);
}

/**
 * Indexes the session's entries from search_seq to its entry count (re-read after each round,
 * so entries committed meanwhile are included). Returns the number of entries it covered; a
 * session that no longer exists ends it quietly.
 */
export async function buildSearchIndex(
  sessionId: string,
  opts: { signal?: AbortSignal; onProgress?: (p: SearchIndexProgress) => void } = {},
): Promise<number> {
  const db = getDb();
  let covered = 0;
  for (;;) {
    opts.signal?.throwIfAborted();
    const [row] = await db.$queryRawUnsafe<{ search_seq: number; entry_count: number }[]>(
      "SELECT search_seq, entry_count FROM sessions WHERE id = $1",
      sessionId,
    );
    if (!row || row.search_seq >= row.entry_count) return covered;
    const total = row.entry_count;
    const chunks: [number, number][] = [];
    for (let from = row.search_seq; from < total; from += SEARCH_CHUNK) chunks.push([from, Math.min(total, from + SEARCH_CHUNK)]);
    const finished = new Set<number>();
    let prefix = 0;
    let next = 0;
    const worker = async () => {
      while (next < chunks.length) {
        opts.signal?.throwIfAborted();
        const i = next++;
        const [from, to] = chunks[i]!;
        // The entries below `total` committed with it, before the SELECT above: this
        // transaction's snapshot (newer) sees them all.
        await db.$transaction(
          async (tx) => {
            await tx.$executeRawUnsafe(WORK_MEM_SQL);
            await tx.$executeRawUnsafe(INSERT_SQL, sessionId, from, to);
          },
          { maxWait: 15_000, timeout: 120_000 },
        );
        finished.add(i);
        let upTo: number | null = null;
        while (finished.has(prefix)) upTo = chunks[prefix++]![1];
        if (upTo !== null) {
          await db.$executeRawUnsafe(ADVANCE_SQL, sessionId, upTo);
          opts.onProgress?.({ indexed: upTo, total });
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(SEARCH_WORKERS, chunks.length) }, worker));
    covered += total - row.search_seq;
  }
}

const running = new Map<string, Promise<void>>();
const waiting: (() => void)[] = [];
let active = 0;
let idle: { promise: Promise<void>; resolve: () => void } | null = null;

async function slot(): Promise<void> {
  if (active < QUEUED_AT_ONCE) {
    active++;
    return;
  }
  await new Promise<void>((resolve) => waiting.push(resolve));
}

function release(): void {
  const next = waiting.shift();
  if (next) {
    next(); // the slot passes on
    return;
  }
  active--;
  if (active === 0 && running.size === 0) {
    idle?.resolve();
    idle = null;
  }
}

/**
 * Queues buildSearchIndex in the background (at most one per session, and QUEUED_AT_ONCE
 * sessions at once, in this process). Failures are left for the next resume: search stays
 * correct without the index.
 */
export function scheduleSearchIndex(sessionId: string): Promise<void> {
  const current = running.get(sessionId);
  if (current) return current;
  const job = (async () => {
    await slot();
    try {
      await buildSearchIndex(sessionId);
    } catch {
      // Left for resumeSearchIndexes.
    } finally {
      running.delete(sessionId);
      release();
    }
  })();
  running.set(sessionId, job);
  return job;
}

/** Resolves once no build scheduled in this process is queued or running. */
export function searchIndexIdle(): Promise<void> {
  if (running.size === 0) return Promise.resolve();
  if (!idle) {
    let resolve!: () => void;
    const promise = new Promise<void>((r) => {
      resolve = r;
    });
    idle = { promise, resolve };
  }
  return idle.promise;
}

let lastResume = 0;
const RESUME_EVERY_MS = 60_000;

/**
 * Schedules the build of every session that is not fully indexed (an import whose process
 * stopped before its build finished), at most once a minute per process. Never throws.
 */
export async function resumeSearchIndexes(now = Date.now()): Promise<void> {
  if (now - lastResume < RESUME_EVERY_MS) return;
  lastResume = now;
  try {
    const rows = await getDb().$queryRawUnsafe<{ id: string }[]>("SELECT id FROM sessions WHERE search_seq < entry_count LIMIT 100");
    for (const r of rows) void scheduleSearchIndex(r.id);
  } catch {
    // Search stays correct without the index; the next search tries again.
  }
}
