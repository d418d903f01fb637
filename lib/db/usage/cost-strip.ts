import "server-only";
/**
 * The session page's cost strip (docs/usage.md "Session page"), computed in the database: the
 * session's counted calls in time order, merged into at most `maxSegments` runs of consecutive
 * calls (costs and tokens summed), with the session's own total and its subagents'. A 100k-entry
 * session has tens of thousands of calls: reading them all to draw 200 segments cost the page
 * 0.35–0.7 s of its server time; this is one grouped statement.
 */
import type { CostSegment } from "@/lib/usage/session-label";
import { getDb } from "../client";
import { type SessionUsage, subagentTotals, type UsageTotal } from "./ledger-read";

export interface SessionCostStrip {
  own: UsageTotal;
  subagents: SessionUsage["subagents"];
  segments: CostSegment[];
}

interface SegmentRow {
  first: bigint;
  calls: bigint;
  key: string;
  kind: string;
  all_messages: boolean;
  model: string;
  cost: bigint | null;
  tokens: bigint;
  unpriced: bigint | null;
}

/**
 * Calls `i` (0-based, time order) of `n` fall in segment ⌊i / ⌈n / max⌉⌋. The count is its own
 * scalar, not a second window over the rows: that window's pass spilled to disk (4 MB work_mem)
 * at 34,000 calls.
 */
const SEGMENTS_SQL = `WITH r AS (
    SELECT u.entry_id, u.kind, u.model, u.cost_micros, u.input + u.output + u.cache_read + u.cache_write AS tokens,
      row_number() OVER (ORDER BY u.at, u.entry_id) - 1 AS i
    FROM usage_rows u WHERE u.session_id = $1 AND u.counted
  ), per AS (SELECT ceil(count(*) / $2::numeric)::bigint AS per FROM usage_rows WHERE session_id = $1 AND counted)
  SELECT min(i) AS first, count(*) AS calls, (array_agg(entry_id ORDER BY i))[1] AS key, (array_agg(kind ORDER BY i))[1] AS kind,
    bool_and(kind = 'message') AS all_messages, (array_agg(model ORDER BY i))[1] AS model, sum(cost_micros) AS cost,
    sum(tokens) AS tokens, sum(tokens) FILTER (WHERE cost_micros IS NULL) AS unpriced
  FROM r, per GROUP BY i / per.per ORDER BY 1`;

export async function sessionCostStrip(input: { sessionId: string; maxSegments: number }): Promise<SessionCostStrip> {
  const [rows, subagents] = await Promise.all([
    getDb().$queryRawUnsafe<SegmentRow[]>(SEGMENTS_SQL, input.sessionId, input.maxSegments),
    subagentTotals(input.sessionId),
  ]);
  const own: UsageTotal = { costMicros: 0, tokens: 0, unpricedTokens: 0, calls: 0 };
  const segments = rows.map((r): CostSegment => {
    const calls = Number(r.calls);
    const first = Number(r.first);
    own.calls += calls;
    own.tokens += Number(r.tokens);
    own.unpricedTokens += Number(r.unpriced ?? 0);
    if (r.cost !== null) own.costMicros += Number(r.cost);
    const kind = r.all_messages ? "message" : calls === 1 ? r.kind : "mixed";
    const label = calls === 1 ? `#${first + 1} ${r.kind === "message" ? "" : `${r.kind} · `}${r.model}` : `#${first + 1}–${first + calls}`;
    return { key: r.key, kind, label, ...(r.cost !== null ? { cost: Number(r.cost) } : {}), tokens: Number(r.tokens) };
  });
  return { own, subagents, segments };
}
