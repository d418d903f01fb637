import "server-only";
/**
 * The full-text rows of a session's entries (`entry_search`, migration 20270103000000), built
 * AFTER an import in set-based steps instead of per row inside the import's COPY.
 *
 * Contract:
 * - `sessions.search_seq` = how far a session is indexed: every entry with seq < search_seq and
 *   a non-null `text` has its row `to_tsvector('simple', text)` in entry_search. It only grows.
 * - Search (lib/db/search/session-list.ts) reads entry_search for seq < search_seq and computes the
 *   same to_tsvector on the fly for the entries after it, so a search returns the same results
 *   whether or not the index is built yet; only its speed differs.
 * - Who indexes: a commit to a fully indexed session, in its own statement (lib/db/store/commit-sql.ts);
 *   a fork, in its transaction (`indexWholeSession`); an import, afterwards: its caller runs
 *   `buildSearchIndex` (the CLI, with progress) or `scheduleSearchIndex` (the server, in the
 *   background). `resumeSearchIndexes` picks up sessions whose build was interrupted (the
 *   process stopped): search calls it.
 * - `buildSearchIndex` works in chunks of CHUNK entries, each its own short READ COMMITTED
 *   transaction (the sessions row is locked only for the final UPDATE, so commits are not held
 *   up); cancelling through `signal` stops between chunks and keeps what is done. Two builders
 *   of one session are harmless (ON CONFLICT DO NOTHING, search_seq = GREATEST).
 */
import { getDb } from "../client";
import type { Sql } from "../store/sql";

/** Entries indexed per transaction (a 100k-entry session: 10 steps). */
export const SEARCH_CHUNK = 10_000;

export interface SearchIndexProgress {
  indexed: number;
  total: number;
}

const INSERT_SQL = `INSERT INTO entry_search (session_id, seq, search)
  SELECT session_id, seq, to_tsvector('simple', text) FROM entries
  WHERE session_id = $1 AND seq >= $2 AND seq < $3 AND text IS NOT NULL
  ON CONFLICT DO NOTHING`;
const ADVANCE_SQL = "UPDATE sessions SET search_seq = GREATEST(search_seq, $2::int) WHERE id = $1";

/** Indexes every entry of a session written in the caller's transaction (fork); `count` = its entries. */
export async function indexWholeSession(sql: Sql, input: { sessionId: string; count: number }): Promise<void> {
  await sql.query(INSERT_SQL, [input.sessionId, 0, input.count]);
  await sql.query(ADVANCE_SQL, [input.sessionId, input.count]);
}

/**
 * Indexes the session's entries from search_seq to its entry count (re-read after each chunk,
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
    const from = row.search_seq;
    const to = Math.min(row.entry_count, from + SEARCH_CHUNK);
    // Two statements in one READ COMMITTED transaction: the INSERT's snapshot is newer than the
    // SELECT above, so it sees every entry below `to` (entry_count and its entries commit together).
    await db.$transaction(
      async (tx) => {
        await tx.$executeRawUnsafe(INSERT_SQL, sessionId, from, to);
        await tx.$executeRawUnsafe(ADVANCE_SQL, sessionId, to);
      },
      { maxWait: 15_000, timeout: 120_000 },
    );
    covered += to - from;
    opts.onProgress?.({ indexed: to, total: row.entry_count });
  }
}

const running = new Map<string, Promise<void>>();

/**
 * Starts buildSearchIndex in the background (at most one per session in this process). Failures
 * are left for the next resume: search stays correct without the index.
 */
export function scheduleSearchIndex(sessionId: string): Promise<void> {
  const current = running.get(sessionId);
  if (current) return current;
  const job = buildSearchIndex(sessionId)
    .then(() => undefined)
    .catch(() => undefined)
    .finally(() => running.delete(sessionId));
  running.set(sessionId, job);
  return job;
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
