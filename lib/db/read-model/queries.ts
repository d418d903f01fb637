import "server-only";
/**
 * The read model's three queries.
 *
 * - `readVersionedMeta`: the session row with its versions, ONE primary-key lookup.
 * - `readNewEntries`: entries seq ∈ [from, to) in file order, plus the session's `rewrite_rev`
 *   from the same statement (hence the same snapshot): if no rewrite happened after the cached
 *   rev by then, the cached entries and these agree. One range scan of (session_id, seq).
 * - `readWholeSession`: meta and every entry in one REPEATABLE READ snapshot, so they agree.
 *
 * Entries travel as JSON text (`data::text`, the same jsonb output PostgreSQL sends for `data`)
 * and are parsed here: the text's length is the size estimate the cache needs, for free.
 */
import type { SessionEntry } from "@/lib/session/types";
import { getDb } from "../client";
import { NotFoundError } from "../errors";
import { SESSION_COLUMNS, type SessionMeta, type SessionRow, toSessionMeta } from "../session-rows";
import type { Tx } from "../store-sql";

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

/** Entries with from ≤ seq < to, and the session's rewrite_rev in the same snapshot (null: no session). */
export async function readNewEntries(
  sessionId: string,
  range: { from: number; to: number },
): Promise<ParsedEntries & { rewriteRev: number | null }> {
  const rows = await getDb().$queryRawUnsafe<{ rewrite_rev: number; json: string | null }[]>(
    `SELECT s.rewrite_rev, e.data::text AS json
     FROM sessions s LEFT JOIN entries e ON e.session_id = s.id AND e.seq >= $2 AND e.seq < $3
     WHERE s.id = $1 ORDER BY e.seq`,
    sessionId,
    range.from,
    range.to,
  );
  return { ...parseRows(rows), rewriteRev: rows[0]?.rewrite_rev ?? null };
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
