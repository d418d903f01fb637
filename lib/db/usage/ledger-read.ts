import "server-only";
/**
 * Reads of the usage ledger (docs/usage.md "The ledger in the database"). Every figure sums
 * counted rows only (ledger-write.ts), so a response held by several sessions counts once and a
 * deleted session's rows count nowhere unless no live session holds them.
 *
 * - `readLedger`: the counted rows in a time range, with the session's project (cwd), for the
 *   reports of lib/usage/report.ts (the row's stored price stands in for the recorded cost, so
 *   the report keeps the price written with the row).
 * - `sessionUsage`: one session's counted rows (per turn, per branch) and its subagents' totals
 *   (sessions whose header names it as parent and carries Claude Code's agent id).
 * - `sessionCosts`: cost and tokens per session, for the session list.
 * - The session page's cost strip is cost-strip.ts (grouped in the database).
 */
import type { LedgerRow } from "@/lib/usage/report";
import type { UsageKind } from "@/lib/usage/rows";
import { getDb } from "../client";

interface DbRow {
  session_id: string;
  entry_id: string;
  kind: string;
  at: Date;
  provider: string;
  model: string;
  input: bigint;
  output: bigint;
  cache_read: bigint;
  cache_write: bigint;
  reasoning: bigint;
  cost_micros: bigint | null;
  price_source: string;
  cwd: string;
}

export interface StoredUsageRow extends LedgerRow {
  priceSource: string;
}

function toRow(r: DbRow): StoredUsageRow {
  return {
    sessionId: r.session_id,
    entryId: r.entry_id,
    kind: r.kind as UsageKind,
    at: r.at.getTime(),
    provider: r.provider,
    model: r.model,
    input: Number(r.input),
    output: Number(r.output),
    cacheRead: Number(r.cache_read),
    cacheWrite: Number(r.cache_write),
    reasoning: Number(r.reasoning),
    ...(r.cost_micros !== null ? { recordedCostMicros: Number(r.cost_micros) } : {}),
    priceSource: r.price_source,
    ...(r.cwd ? { project: r.cwd } : {}),
  };
}

const COLUMNS = `u.session_id, u.entry_id, u.kind, u.at, u.provider, u.model, u.input, u.output, u.cache_read, u.cache_write,
  u.reasoning, u.cost_micros, u.price_source, s.cwd`;

/** Counted rows with `since` ≤ at < `until` (either optional), oldest first. */
export async function readLedger(input: { since?: Date; until?: Date } = {}): Promise<StoredUsageRow[]> {
  const rows = await getDb().$queryRawUnsafe<DbRow[]>(
    `SELECT ${COLUMNS} FROM usage_rows u JOIN sessions s ON s.id = u.session_id
     WHERE u.counted AND ($1::timestamptz IS NULL OR u.at >= $1) AND ($2::timestamptz IS NULL OR u.at < $2)
     ORDER BY u.at, u.session_id, u.entry_id`,
    input.since ?? null,
    input.until ?? null,
  );
  return rows.map(toRow);
}

export interface UsageTotal {
  costMicros: number;
  tokens: number;
  /** Tokens of rows whose price is unknown (not in costMicros). */
  unpricedTokens: number;
  calls: number;
}

export interface SessionUsage {
  /** The session's own counted rows, oldest first. */
  rows: StoredUsageRow[];
  own: UsageTotal;
  /** Its subagents' sessions, summed. */
  subagents: UsageTotal & { sessions: number };
}

interface TotalRow {
  cost: bigint | null;
  tokens: bigint | null;
  unpriced: bigint | null;
  calls: bigint;
  sessions: bigint;
}

const TOTALS = `COALESCE(sum(u.cost_micros), 0) AS cost, COALESCE(sum(u.input + u.output + u.cache_read + u.cache_write), 0) AS tokens,
  COALESCE(sum(u.input + u.output + u.cache_read + u.cache_write) FILTER (WHERE u.cost_micros IS NULL), 0) AS unpriced,
  count(u.entry_id) AS calls`;

const total = (r: TotalRow | undefined): UsageTotal => ({
  costMicros: Number(r?.cost ?? 0),
  tokens: Number(r?.tokens ?? 0),
  unpricedTokens: Number(r?.unpriced ?? 0),
  calls: Number(r?.calls ?? 0),
});

/** The totals of a session's live subagents (sessions naming it as parent with Claude Code's agent id). */
export async function subagentTotals(sessionId: string): Promise<SessionUsage["subagents"]> {
  const [sub] = await getDb().$queryRawUnsafe<TotalRow[]>(
    `SELECT ${TOTALS}, count(DISTINCT s.id) AS sessions
     FROM sessions s LEFT JOIN usage_rows u ON u.session_id = s.id AND u.counted
     WHERE s.parent_session = $1 AND s.deleted_at IS NULL AND s.header -> 'claudeCode' ->> 'agentId' IS NOT NULL`,
    sessionId,
  );
  return { ...total(sub), sessions: Number(sub?.sessions ?? 0) };
}

/** Two statements: the session's rows, and its live subagents' totals. */
export async function sessionUsage(input: { sessionId: string }): Promise<SessionUsage> {
  const [rows, subagents] = await Promise.all([
    getDb().$queryRawUnsafe<DbRow[]>(
      `SELECT ${COLUMNS} FROM usage_rows u JOIN sessions s ON s.id = u.session_id
       WHERE u.session_id = $1 AND u.counted ORDER BY u.at, u.entry_id`,
      input.sessionId,
    ),
    subagentTotals(input.sessionId),
  ]);
  const own = rows.map(toRow);
  const ownTotal: UsageTotal = { costMicros: 0, tokens: 0, unpricedTokens: 0, calls: own.length };
  for (const r of own) {
    const tokens = r.input + r.output + r.cacheRead + r.cacheWrite;
    ownTotal.tokens += tokens;
    if (r.recordedCostMicros === undefined) ownTotal.unpricedTokens += tokens;
    else ownTotal.costMicros += r.recordedCostMicros;
  }
  return { rows: own, own: ownTotal, subagents };
}

/** Cost and tokens of each of `sessionIds` (counted rows; sessions without any are absent). */
export async function sessionCosts(input: { sessionIds: readonly string[] }): Promise<Map<string, UsageTotal>> {
  const out = new Map<string, UsageTotal>();
  if (input.sessionIds.length === 0) return out;
  const rows = await getDb().$queryRawUnsafe<(TotalRow & { session_id: string })[]>(
    `SELECT u.session_id, ${TOTALS}, 1 AS sessions FROM usage_rows u
     WHERE u.session_id = ANY($1::text[]) AND u.counted GROUP BY u.session_id`,
    [...input.sessionIds],
  );
  for (const r of rows) out.set(r.session_id, total(r));
  return out;
}
