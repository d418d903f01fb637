import "server-only";
/**
 * The session list filtered by search words (lib/db/search/session-list.ts states what matches).
 *
 * `entries` is split into sixteen tables by session id (migration 20270125000000_entries_hashed),
 * so a statement may join it to many sessions at once: it opens at most those sixteen.
 *
 * The statements:
 * 1. the page: title matches, entry_search matches, and for the sessions whose full-text rows
 *    are not all built yet (an import's, lib/db/search/search-index.ts; usually none) their entries
 *    past `search_seq` matched on the fly, with the first matching entry's seq of each row. First
 *    over the newest sessions in scope (at most WALK, holding at most WALK_ROWS entries together),
 *    each checked on its own rows: common words fill the page there (measured at 10,000 sessions / 500k messages: 18–34 ms, against 106–250 ms
 *    through the GIN index, which collects every matching row first). When they do not and
 *    there are sessions the walk did not check (a count of WALK + 1 rows of the list index),
 *    the whole set through the GIN index, which is fast for rare words;
 * 2. the matching entries' ids and snippets (ts_headline), one subquery per row naming its id.
 *
 * A check of one session's rows (the walk's, a page row's first match) reads them by the primary
 * key, never through the GIN index (see the walk below).
 */
import { Prisma } from "@/generated/prisma/client";
import { getDb } from "../client";
import { resumeSearchIndexes } from "./search-index";
import type { SessionSummaryRow } from "../store/session-rows";
import type { FormatId } from "@/lib/formats/types";

/** Narrows the list (session-list.ts states each field); every field given must hold. */
export interface SessionFilter {
  agent?: FormatId;
  project?: string;
  model?: string;
  activeFrom?: Date;
  activeBefore?: Date;
}

export interface SearchPageInput {
  cursor: { at: Date; id: string } | null;
  take: number;
  includeDeleted: boolean;
  filter?: SessionFilter;
}

/** The filter's conditions on `s` (sessions). */
export function filterConditions(filter: SessionFilter | undefined): Prisma.Sql[] {
  if (!filter) return [];
  const out: Prisma.Sql[] = [];
  if (filter.agent) out.push(Prisma.sql`EXISTS (SELECT 1 FROM session_sources src WHERE src.session_id = s.id AND src.format = ${filter.agent})`);
  if (filter.project !== undefined) out.push(Prisma.sql`s.cwd = ${filter.project}`);
  if (filter.model !== undefined) out.push(Prisma.sql`s.model = ${filter.model}`);
  if (filter.activeFrom) out.push(Prisma.sql`s.last_activity_at >= ${filter.activeFrom}::timestamptz`);
  if (filter.activeBefore) out.push(Prisma.sql`s.last_activity_at < ${filter.activeBefore}::timestamptz`);
  return out;
}

export type SearchRow = SessionSummaryRow & { matchId?: string | null; snippet?: string | null };

type PageRow = SessionSummaryRow & { hitSeq: number | null };

export async function searchPage(tsquery: string, { cursor, take, includeDeleted, filter }: SearchPageInput): Promise<SearchRow[]> {
  void resumeSearchIndexes();
  const q = Prisma.sql`to_tsquery('simple', ${tsquery})`;
  const live = includeDeleted ? Prisma.empty : Prisma.sql`AND deleted_at IS NULL`;
  // One row per session not fully indexed: the first entry past its search_seq that matches.
  const tails = Prisma.sql`SELECT p.id AS sid, (SELECT min(e.seq) FROM entries e WHERE e.session_id = p.id
      AND e.seq >= p.search_seq AND to_tsvector('simple', coalesce(e.text, '')) @@ ${q}) AS seq
    FROM sessions p WHERE p.search_seq < p.entry_count ${live}`;
  const match = Prisma.sql`(s.title_search @@ ${q} OR EXISTS (SELECT 1 FROM entry_search x WHERE x.session_id = s.id AND x.search @@ ${q})
      OR s.id IN (SELECT t.sid FROM tail t WHERE t.seq IS NOT NULL))`;
  const scope: Prisma.Sql[] = [Prisma.sql`true`];
  if (!includeDeleted) scope.push(Prisma.sql`s.deleted_at IS NULL`);
  scope.push(...filterConditions(filter));
  if (cursor) scope.push(Prisma.sql`(s.last_activity_at, s.id) < (${cursor.at}::timestamptz, ${cursor.id}::text)`);
  const inScope = Prisma.join(scope, " AND ");
  const ordered = Prisma.sql`SELECT * FROM sessions s WHERE ${inScope} ORDER BY s.last_activity_at DESC, s.id DESC`;
  // First the newest sessions in scope (the walk), each checked on its own rows (cheap when
  // the words are common: the page fills at once). If they hold a full page, or are all there is, that is
  // the answer; otherwise the whole set, through the GIN index (rare words: few rows).
  // LATERAL … LIMIT 1: checked per session (its rows by the primary key), never hashed over every matching row.
  // ts_match_vq is the function of `@@`, which the planner cannot match to the GIN index: with `@@`
  // it may misjudge a prefix query's selectivity and AND the GIN index's whole scan into every
  // session's check (measured at 10,000 sessions: 44 ms a session, 9 s a walk; bench/history-search.ts).
  // The walk's sessions: the newest WALK, cut where their entries pass WALK_ROWS (so a rare word
  // checks at most that many rows before the GIN index is asked).
  const newest = Prisma.sql`SELECT w.*, (row_number() OVER o <= ${WALK} AND sum(w.entry_count) OVER o <= ${WALK_ROWS}) AS walked
    FROM (${ordered} LIMIT ${WALK + 1}) w WINDOW o AS (ORDER BY w.last_activity_at DESC, w.id DESC)`;
  const walkSource = Prisma.sql`(SELECT * FROM (${newest}) w WHERE w.walked) s
    LEFT JOIN LATERAL (SELECT true AS hit FROM entry_search x WHERE x.session_id = s.id AND ts_match_vq(x.search, ${q}) LIMIT 1) h ON true`;
  const walkMatch = Prisma.sql`(s.title_search @@ ${q} OR h.hit OR s.id IN (SELECT t.sid FROM tail t WHERE t.seq IS NOT NULL))`;
  const walked = await pageOf(walkSource, walkMatch, tails, q, take);
  let page = walked;
  if (walked.length < take) {
    const [scoped] = await getDb().$queryRaw<{ n: number; walked: number }[]>`SELECT count(*)::int AS n,
      count(*) FILTER (WHERE s.walked)::int AS walked FROM (${newest}) s`;
    if ((scoped?.n ?? 0) > (scoped?.walked ?? 0)) page = await pageOf(Prisma.sql`sessions s`, Prisma.sql`${match} AND ${inScope}`, tails, q, take);
  }
  const matches = await snippets(page, q);
  return page.map(({ hitSeq: _seq, ...row }) => ({ ...row, ...matches.get(row.id) }));
}

/** Sessions checked by the walk before the whole set is searched (see searchPage). */
const WALK = 200;
/** Entries (entry_count) the walk's sessions hold together at most (10,000 rows of checks took 20–30 ms when none matched). */
const WALK_ROWS = 20_000;

/** The first `take` sessions (in list order) of `source`, a FROM item named s, that satisfy `match`. */
function pageOf(source: Prisma.Sql, match: Prisma.Sql, tails: Prisma.Sql, q: Prisma.Sql, take: number): Promise<PageRow[]> {
  return getDb().$queryRaw<PageRow[]>`
    WITH tail AS MATERIALIZED (${tails}), page AS (
      SELECT s.id, s.title, s.entry_count AS "entryCount", s.model, s.created_at AS "createdAt",
        s.last_activity_at AS "lastActivityAt", s.deleted_at AS "deletedAt"
      FROM ${source} WHERE ${match}
      ORDER BY s.last_activity_at DESC, s.id DESC
      LIMIT ${take}
    )
    SELECT p.*, LEAST(
        -- The first match in seq order on the primary key (ts_match_vq: see the walk in searchPage).
        (SELECT x.seq FROM entry_search x WHERE x.session_id = p.id AND ts_match_vq(x.search, ${q}) ORDER BY x.seq LIMIT 1),
        (SELECT t.seq FROM tail t WHERE t.sid = p.id)) AS "hitSeq"
    FROM page p ORDER BY p."lastActivityAt" DESC, p.id DESC`;
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
