import "server-only";
/**
 * The session list filtered by search words (lib/db/search/session-list.ts states what matches).
 *
 * Every read of `entries` here names its session's id as a value, never a column of another
 * row: `entries` is one table per session (lib/db/store/entry-partitions.ts), and only a session id known
 * when the statement is planned confines it to that session's table. A correlated
 * `e.session_id = s.id` would plan (and lock) every session's table, once per statement:
 * measured with 1,000 sessions, 0.3 s to plan and 2.9 s to run one search.
 *
 * Three statements:
 * 1. the sessions whose full-text rows are not all built yet (an import's, lib/db/search/search-index.ts;
 *    usually none): their entries past `search_seq` are matched on the fly, one subquery per
 *    session naming its id;
 * 2. the page: title matches, entry_search matches (one table, GIN index) and those tails, with
 *    the first matching entry's seq of each row;
 * 3. the matching entries' ids and snippets (ts_headline), one subquery per row naming its id.
 */
import { Prisma } from "@/generated/prisma/client";
import { getDb } from "../client";
import { resumeSearchIndexes } from "./search-index";
import type { SessionSummaryRow } from "../store/session-rows";

export interface SearchPageInput {
  cursor: { at: Date; id: string } | null;
  take: number;
  includeDeleted: boolean;
}

export type SearchRow = SessionSummaryRow & { matchId?: string | null; snippet?: string | null };

type PageRow = SessionSummaryRow & { hitSeq: number | null };

const NO_TAILS = Prisma.sql`SELECT NULL::text AS sid, NULL::int AS seq WHERE false`;

export async function searchPage(tsquery: string, { cursor, take, includeDeleted }: SearchPageInput): Promise<SearchRow[]> {
  void resumeSearchIndexes();
  const q = Prisma.sql`to_tsquery('simple', ${tsquery})`;
  const live = includeDeleted ? Prisma.empty : Prisma.sql`AND deleted_at IS NULL`;
  const pending = await getDb().$queryRaw<{ id: string; searchSeq: number }[]>`
    SELECT id, search_seq AS "searchSeq" FROM sessions WHERE search_seq < entry_count ${live}`;
  const tails =
    pending.length === 0
      ? NO_TAILS
      : Prisma.join(
          pending.map(
            (p) => Prisma.sql`SELECT ${p.id}::text AS sid, (SELECT min(e.seq) FROM entries e WHERE e.session_id = ${p.id}
              AND e.seq >= ${p.searchSeq}::int AND to_tsvector('simple', coalesce(e.text, '')) @@ ${q}) AS seq`,
          ),
          " UNION ALL ",
        );
  const conditions: Prisma.Sql[] = [
    // EXISTS becomes a semi-join on the GIN index of entry_search.search.
    Prisma.sql`(s.title_search @@ ${q} OR EXISTS (SELECT 1 FROM entry_search x WHERE x.session_id = s.id AND x.search @@ ${q})
      OR s.id IN (SELECT t.sid FROM tail t WHERE t.seq IS NOT NULL))`,
  ];
  if (!includeDeleted) conditions.push(Prisma.sql`s.deleted_at IS NULL`);
  if (cursor) conditions.push(Prisma.sql`(s.last_activity_at, s.id) < (${cursor.at}::timestamptz, ${cursor.id}::text)`);
  const page = await getDb().$queryRaw<PageRow[]>`
    WITH tail AS MATERIALIZED (${tails}), page AS (
      SELECT s.id, s.title, s.entry_count AS "entryCount", s.model, s.created_at AS "createdAt",
        s.last_activity_at AS "lastActivityAt", s.deleted_at AS "deletedAt"
      FROM sessions s WHERE ${Prisma.join(conditions, " AND ")}
      ORDER BY s.last_activity_at DESC, s.id DESC
      LIMIT ${take}
    )
    SELECT p.*, LEAST(
        (SELECT min(x.seq) FROM entry_search x WHERE x.session_id = p.id AND x.search @@ ${q}),
        (SELECT t.seq FROM tail t WHERE t.sid = p.id)) AS "hitSeq"
    FROM page p ORDER BY p."lastActivityAt" DESC, p.id DESC`;
  const matches = await snippets(page, q);
  return page.map(({ hitSeq: _seq, ...row }) => ({ ...row, ...matches.get(row.id) }));
}

/** The matching entry and its snippet of each row with an entry match. */
async function snippets(page: readonly PageRow[], q: Prisma.Sql): Promise<Map<string, { matchId: string; snippet: string | null }>> {
  const hits = page.filter((r) => r.hitSeq !== null);
  if (hits.length === 0) return new Map();
  const rows = await getDb().$queryRaw<{ sid: string; matchId: string; snippet: string | null }[]>`${Prisma.join(
    hits.map(
      (h) => Prisma.sql`(SELECT ${h.id}::text AS sid, e.id AS "matchId", ts_headline('simple', e.text, ${q},
        'MaxWords=24, MinWords=10, MaxFragments=1, StartSel="", StopSel="", FragmentDelimiter=" … "') AS snippet
        FROM entries e WHERE e.session_id = ${h.id} AND e.seq = ${h.hitSeq}::int)`,
    ),
    " UNION ALL ",
  )}`;
  return new Map(rows.map((r) => [r.sid, { matchId: r.matchId, snippet: r.snippet }]));
}
