import "server-only";
/**
 * The session list filtered by search words (lib/db/search/session-list.ts states what matches).
 *
 * `entries` is split into sixteen tables by session id (migration 20270125000000_entries_hashed),
 * so a statement may join it to many sessions at once: it opens at most those sixteen.
 *
 * Two statements:
 * 1. the page: title matches, entry_search matches (one table, GIN index), and for the
 *    sessions whose full-text rows are not all built yet (an import's, lib/db/search/search-index.ts;
 *    usually none) their entries past `search_seq` matched on the fly, with the first matching
 *    entry's seq of each row;
 * 2. the matching entries' ids and snippets (ts_headline), one subquery per row naming its id.
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
  const conditions: Prisma.Sql[] = [
    // EXISTS becomes a semi-join on the GIN index of entry_search.search.
    Prisma.sql`(s.title_search @@ ${q} OR EXISTS (SELECT 1 FROM entry_search x WHERE x.session_id = s.id AND x.search @@ ${q})
      OR s.id IN (SELECT t.sid FROM tail t WHERE t.seq IS NOT NULL))`,
  ];
  if (!includeDeleted) conditions.push(Prisma.sql`s.deleted_at IS NULL`);
  conditions.push(...filterConditions(filter));
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
