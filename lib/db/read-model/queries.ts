import "server-only";
/**
 * The read model's queries.
 *
 * - `readVersionedMeta`: the session row with its versions, ONE primary-key lookup.
 * - `readNewEntries`: entries seq ∈ [from, to) in file order, plus the session's `rewrite_rev`
 *   from the same statement (hence the same snapshot): if no rewrite happened after the cached
 *   rev by then, the cached entries and these agree. One range scan of (session_id, seq).
 * - `readWholeSession`: meta and every entry in one REPEATABLE READ snapshot, so they agree.
 * - `readAllAt`: every entry of a session at a version just read (a cold cache), as ranges of
 *   ENTRIES_PER_PART (readNewEntries' statement), READ_PARTS at a time on pooled connections
 *   (part-pool.ts): the server reads parts on both cores while this process parses the parts
 *   that arrived. A 100k-entry session is 40 statements.
 *   Each part's statement also returns rewrite_rev, so if any part's snapshot saw a rewrite
 *   after that version it returns null (the caller reloads in one snapshot): entries below the
 *   version's entry_count only change through rewrites, so parts that saw none agree.
 *
 * Entries travel as JSON text (`data::text`: the stored json text itself, nothing to render)
 * and are parsed here: the text's length is the size estimate the cache needs, for free.
 */
import type { SessionEntry } from "@/lib/session/types";
import { getDb } from "../client";
import { NotFoundError } from "../errors";
import { SESSION_COLUMNS, type SessionMeta, type SessionRow, toSessionMeta } from "../store/session-rows";
import type { Tx } from "../store/sql";
import { partQuery } from "./part-pool";

export interface VersionedMeta {
  meta: SessionMeta;
  rev: number;
  rewriteRev: number;
  /** The value of the caller's `MetaExtra` column (undefined without one). */
  extra?: unknown;
}

/**
 * One more column for the meta statement, so a request's own data comes with the version check
 * in ONE statement: `sql` is a scalar SQL expression (typically a subquery returning json) in
 * which `$1` is the session id. It is read in the same snapshot as the session row.
 */
export interface MetaExtra {
  sql: string;
}

type VersionedRow = SessionRow & { rev: number; rewrite_rev: number; extra?: unknown };
type Reader = Pick<Tx, "$queryRawUnsafe">;

const metaSql = (extra?: MetaExtra) =>
  `SELECT ${SESSION_COLUMNS}, rev, rewrite_rev${extra ? `, (${extra.sql}) AS extra` : ""} FROM sessions WHERE id = $1`;

async function metaOf(db: Reader, sessionId: string, extra?: MetaExtra): Promise<VersionedMeta> {
  const [row] = await db.$queryRawUnsafe<VersionedRow[]>(metaSql(extra), sessionId);
  if (!row) throw new NotFoundError({ sessionId });
  return { meta: toSessionMeta(row), rev: row.rev, rewriteRev: row.rewrite_rev, ...(extra ? { extra: row.extra } : {}) };
}

/** The session row and its versions (and `extra`); NotFoundError when absent (a soft-deleted one reads). */
export function readVersionedMeta(sessionId: string, extra?: MetaExtra): Promise<VersionedMeta> {
  return metaOf(getDb(), sessionId, extra);
}

export interface ParsedEntries {
  entries: SessionEntry[];
  /** Sum of the entries' JSON text lengths. */
  chars: number;
}

function parseRows(rows: readonly { json: string | null }[]): ParsedEntries {
  const entries: SessionEntry[] = [];
  let chars = 0;
  for (const row of rows) {
    if (row.json === null) continue;
    chars += row.json.length;
    entries.push(JSON.parse(row.json) as SessionEntry);
  }
  return { entries, chars };
}

/** `e.session_id = $1`, not `= s.id`: the constant picks the session's partition of entries at planning (see lib/db/store/read.ts readEntries). */
const RANGE_SQL = `SELECT s.rewrite_rev, e.data::text AS json
  FROM sessions s LEFT JOIN entries e ON e.session_id = $1 AND e.seq >= $2 AND e.seq < $3
  WHERE s.id = $1 ORDER BY e.seq`;
type RangeRow = { rewrite_rev: number; json: string | null };
type RangeRead = ParsedEntries & { rewriteRev: number | null };

function rangeOf(rows: readonly RangeRow[]): RangeRead {
  return { ...parseRows(rows), rewriteRev: rows[0]?.rewrite_rev ?? null };
}

/** Entries with from ≤ seq < to, and the session's rewrite_rev in the same snapshot (null: no session). */
export async function readNewEntries(sessionId: string, range: { from: number; to: number }): Promise<RangeRead> {
  return rangeOf(await getDb().$queryRawUnsafe<RangeRow[]>(RANGE_SQL, sessionId, range.from, range.to));
}

/** Meta, versions and all entries from one snapshot. */
export async function readWholeSession(sessionId: string, extra?: MetaExtra): Promise<VersionedMeta & ParsedEntries> {
  return getDb().$transaction(
    async (tx) => {
      const versioned = await metaOf(tx, sessionId, extra);
      const rows = await tx.$queryRawUnsafe<{ json: string }[]>(
        "SELECT data::text AS json FROM entries WHERE session_id = $1 ORDER BY seq",
        sessionId,
      );
      return { ...versioned, ...parseRows(rows) };
    },
    { isolationLevel: "RepeatableRead", maxWait: 15_000, timeout: 60_000 },
  );
}

/** Connections a cold read uses at once (part-pool.ts). */
const READ_PARTS = 4;
/** Entries per part (below this, one statement reads them all). */
const ENTRIES_PER_PART = 2500;
/**
 * At most this many parts. More parts than connections queue on the pool, so this process
 * parses the parts that arrived while the server reads the next ones (measured on 100k
 * entries: 4 parts 1.6 s, 20 parts 0.88 s, 40 parts 0.89 s; 10k: 2 parts 71 ms, 4 parts 58 ms).
 */
const MAX_PARTS = 64;

/** Entries 0 … v.meta.entryCount − 1 as of version `v`, or null when a rewrite happened since. */
export async function readAllAt(sessionId: string, v: VersionedMeta): Promise<ParsedEntries | null> {
  const count = v.meta.entryCount;
  const parts = Math.max(1, Math.min(MAX_PARTS, Math.ceil(count / ENTRIES_PER_PART)));
  const size = Math.ceil(count / parts);
  const ranges = Array.from({ length: parts }, (_, i) => ({ from: i * size, to: Math.min(count, (i + 1) * size) }));
  // On part-pool.ts's connections, not Prisma's (see there: heap retained by parallel Prisma reads).
  const read = await Promise.all(ranges.map((r) => partQuery(RANGE_SQL, [sessionId, r.from, r.to], READ_PARTS, rangeOf)));
  const out: ParsedEntries = { entries: [], chars: 0 };
  for (const [i, part] of read.entries()) {
    const range = ranges[i]!;
    if (part.rewriteRev === null || part.rewriteRev > v.rev || part.entries.length !== range.to - range.from) return null;
    for (const e of part.entries) out.entries.push(e);
    out.chars += part.chars;
  }
  return out;
}
