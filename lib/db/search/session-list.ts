import "server-only";
/**
 * The session list of the home page: newest activity first, keyset paging, full-text search.
 *
 * Contract:
 * - Order: `last_activity_at DESC, id DESC`. Paging is keyset on that pair, so every session
 *   appears exactly once across pages even while sessions are added, and page N costs the same
 *   as page 1 (the partial index `sessions(last_activity_at DESC, id DESC) WHERE deleted_at IS
 *   NULL`: an index led by deleted_at does not give live sessions in order, and the page read and
 *   sorted every session; session-list-order.test.ts checks the plans).
 * - `nextCursor` is opaque; null on the last page. A malformed cursor starts from the top.
 * - Search is PostgreSQL full-text search ('simple' configuration, no stemming), never a scan in
 *   JavaScript: the user's words become `w1:* & w2:* …` (prefix match, all words required), built
 *   from letters and digits only, so no input can inject tsquery syntax. A session matches when
 *   its title matches, or when ONE of its entries contains all the words (GIN indexes on
 *   `title_search` and `entry_search.search`). Entries past the session's `search_seq` (an
 *   import whose full-text rows are still being built, lib/db/search/search-index.ts) are matched with
 *   the same to_tsvector computed on the fly, so results do not depend on the build's progress.
 *   For entry matches `match` names the first such entry and gives a short snippet around the
 *   words (ts_headline). The search's statements: lib/db/search/session-search.ts.
 * - Soft-deleted sessions are left out unless `includeDeleted`.
 * - `filter` narrows the list and the search alike, keeping order and paging: `agent` = the
 *   format of the file the session was imported or synced from (sessions made in Arbor and a
 *   file's sidechain sessions have none, so no agent filter lists them); `project` = the
 *   session's cwd, exactly; `model` = its last model ("provider/modelId"); `activeFrom` /
 *   `activeBefore` bound its last activity (from inclusive, before exclusive).
 * - `secrets` counts the credentials found in a session (lib/db/store/secret-findings.ts), when any.
 * - Each session carries its cost (`usage`, lib/db/usage/ledger-read.ts) and its `agent` and
 *   `project` (session-facets.ts `sessionOrigins`): one more statement per page each.
 * - `sort: "cost"` (the list without search words): costliest first, `cost_micros DESC, id DESC`
 *   (sessions.cost_micros, kept by the ledger's triggers), keyset paging on that pair on the
 *   partial index `sessions(cost_micros DESC, id DESC) WHERE deleted_at IS NULL`; its cursors
 *   are not valid for the other order (a cursor of the other order starts from the top). A
 *   search keeps its own order.
 */
import type { SessionPage } from "@/lib/types/session";
import { getDb } from "../client";
import { SESSION_SUMMARY_SELECT, type SessionSummary, type SessionSummaryRow, toSessionSummary } from "../store/session-rows";
import { type SearchPageInput, type SearchRow, type SessionFilter, searchPage } from "./session-search";

export type { SessionFilter } from "./session-search";
import { countSecretFindings } from "../store/secret-findings";
import { sessionCosts } from "../usage/ledger-read";
import { sessionOrigins } from "./session-facets";

export interface ListSessionsInput {
  query?: string;
  cursor?: string | null;
  limit?: number;
  includeDeleted?: boolean;
  filter?: SessionFilter;
  /** "activity" (default) or "cost" (only without search words). */
  sort?: ListSort;
}

export type ListSort = "activity" | "cost";

export type { SessionPage } from "@/lib/types/session";

export const DEFAULT_PAGE_SIZE = 50;
const MAX_PAGE_SIZE = 200;
const MAX_WORDS = 12;

/** The tsquery text for a user's search box input, or null when it has no words. */
export function toPrefixTsQuery(input: string): string | null {
  const words = input
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== "")
    .slice(0, MAX_WORDS);
  if (words.length === 0) return null;
  return [...new Set(words)].map((w) => `${w}:*`).join(" & ");
}

interface Cursor {
  at: Date;
  id: string;
}

function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify([c.at.toISOString(), c.id])).toString("base64url");
}

/** The cost order's cursor: ["cost", cost in micros as text, id]. */
interface CostCursor {
  cost: bigint;
  id: string;
}

function encodeCostCursor(c: CostCursor): string {
  return Buffer.from(JSON.stringify(["cost", c.cost.toString(), c.id])).toString("base64url");
}

function decodeCostCursor(raw: string | null | undefined): CostCursor | null {
  if (!raw) return null;
  try {
    const value: unknown = JSON.parse(Buffer.from(raw, "base64url").toString("utf8"));
    if (!Array.isArray(value) || value[0] !== "cost" || typeof value[1] !== "string" || typeof value[2] !== "string") return null;
    if (!/^-?\d{1,19}$/.test(value[1]) || value[2].includes("\u0000")) return null;
    return { cost: BigInt(value[1]), id: value[2] };
  } catch {
    return null;
  }
}

function decodeCursor(raw: string | null | undefined): Cursor | null {
  if (!raw) return null;
  try {
    const value: unknown = JSON.parse(Buffer.from(raw, "base64url").toString("utf8"));
    if (!Array.isArray(value) || typeof value[0] !== "string" || typeof value[1] !== "string") return null;
    // PostgreSQL text cannot hold U+0000: such a cursor is malformed, not a database error.
    if (value[1].includes("\u0000")) return null;
    const at = new Date(value[0]);
    return Number.isNaN(at.getTime()) ? null : { at, id: value[1] };
  } catch {
    return null;
  }
}

type Row = SearchRow;

export async function listSessions(input: ListSessionsInput = {}): Promise<SessionPage> {
  const limit = Math.min(MAX_PAGE_SIZE, Math.max(1, Math.floor(input.limit ?? DEFAULT_PAGE_SIZE)));
  const page = { cursor: decodeCursor(input.cursor), take: limit + 1, includeDeleted: input.includeDeleted ?? false, ...(input.filter ? { filter: input.filter } : {}) };
  const tsquery = input.query ? toPrefixTsQuery(input.query) : null;
  const byCost = !tsquery && input.sort === "cost";
  const rows: Row[] = tsquery
    ? await searchPage(tsquery, page)
    : byCost
      ? await costPage({ ...page, cost: decodeCostCursor(input.cursor) })
      : await plainPage(page);

  const shown = rows.slice(0, limit);
  const last = shown.at(-1);
  const sessions = shown.map((r): SessionSummary => {
    const summary = toSessionSummary(r);
    if (r.matchId) summary.match = { entryId: r.matchId, snippet: (r.snippet ?? "").replace(/\s+/g, " ").trim() };
    return summary;
  });
  // The list's badge: how many secrets each session holds (docs/secrets.md); one grouped count.
  // The page's costs: one statement on the ledger's primary key (session_id, …).
  // Each row's agent icon and project (session-facets.ts): one statement on the sessions' keys.
  const ids = sessions.map((s) => s.id);
  const [secrets, costs, origins] = await Promise.all([countSecretFindings(ids), sessionCosts({ sessionIds: ids }), sessionOrigins(ids)]);
  for (const s of sessions) {
    const origin = origins.get(s.id);
    if (origin) {
      s.project = origin.project;
      if (origin.agent) s.agent = origin.agent;
    }
    const n = secrets.get(s.id);
    if (n) s.secrets = n;
    const c = costs.get(s.id);
    if (c) s.usage = { costMicros: c.costMicros, tokens: c.tokens, unpricedTokens: c.unpricedTokens };
  }
  const more = rows.length > limit && last;
  const nextCursor = !more
    ? null
    : byCost
      ? encodeCostCursor({ cost: (last as CostRow).costMicros, id: last.id })
      : encodeCursor({ at: last.lastActivityAt, id: last.id });
  return { sessions, nextCursor };
}

type PageInput = SearchPageInput;

/** The filter's conditions, as the typed queries take them (the list by activity and by cost alike). */
function filterWhere(filter: SessionFilter | undefined) {
  const active = filter?.activeFrom || filter?.activeBefore ? { ...(filter.activeFrom ? { gte: filter.activeFrom } : {}), ...(filter.activeBefore ? { lt: filter.activeBefore } : {}) } : null;
  return {
    ...(filter?.agent ? { source: { is: { format: filter.agent } } } : {}),
    ...(filter?.project !== undefined ? { cwd: filter.project } : {}),
    ...(filter?.model !== undefined ? { model: filter.model } : {}),
    // With a cursor too: both conditions on last_activity_at must hold (AND of the two objects).
    ...(active ? { AND: [{ lastActivityAt: active }] } : {}),
  };
}

/** The list without search words: a typed query on the list index. */
function plainPage({ cursor, take, includeDeleted, filter }: PageInput): Promise<SessionSummaryRow[]> {
  return getDb().session.findMany({
    where: {
      ...(includeDeleted ? {} : { deletedAt: null }),
      ...filterWhere(filter),
      // (last_activity_at, id) < cursor: `lte` starts the index scan at the cursor, NOT drops its ties.
      ...(cursor ? { lastActivityAt: { lte: cursor.at }, NOT: { lastActivityAt: cursor.at, id: { gte: cursor.id } } } : {}),
    },
    orderBy: [{ lastActivityAt: "desc" }, { id: "desc" }],
    take,
    select: SESSION_SUMMARY_SELECT,
  });
}

type CostRow = SessionSummaryRow & { costMicros: bigint };

/** The list by cost: a typed query on the cost index, keyset on (cost_micros, id) descending. */
function costPage({ cost, take, includeDeleted, filter }: PageInput & { cost: CostCursor | null }): Promise<CostRow[]> {
  return getDb().session.findMany({
    where: {
      ...(includeDeleted ? {} : { deletedAt: null }),
      ...filterWhere(filter),
      ...(cost ? { costMicros: { lte: cost.cost }, NOT: { costMicros: cost.cost, id: { gte: cost.id } } } : {}),
    },
    orderBy: [{ costMicros: "desc" }, { id: "desc" }],
    take,
    select: { ...SESSION_SUMMARY_SELECT, costMicros: true },
  });
}
