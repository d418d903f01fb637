import "server-only";
/**
 * The Usage page's sums (lib/usage/series.ts): counted ledger rows grouped by period (in the
 * time zone given, default the server's) and by model, project (the session's cwd) or agent
 * (the format the session came from; Arbor's own sessions are "pi"). No ledger row or entry is
 * read: one statement over the pre-aggregates that usage_rows' triggers keep (migration
 * 20270123000000):
 * - usage_daily (per local day of usage_zone's time zone and group of the stack asked for) when
 *   the zone asked for is that zone: ~days × groups rows, however many sessions;
 * - else usage_rollup (per session, 15-minute UTC bucket and model): every zone in use today
 *   is a whole number of quarter hours off UTC, so its local days are unions of buckets.
 * Both give the same sums. `rezoneDaily` moves usage_daily to another zone (the page does it
 * for the server's zone when it differs: a server moved to another zone).
 * `since` / `until` are the instants local days start at (the page's from / to).
 */
import type { Bucket, SeriesCell, StackBy } from "@/lib/usage/series";
import { getDb } from "../client";
import { withTransaction } from "../store/sql";

const ROLLUP_GROUP: Record<StackBy, string> = {
  model: "r.model",
  project: "arbor_usage_project(s.cwd)",
  agent: "arbor_usage_agent(s.header)",
};

const SUMS = (t: string) => `sum(${t}.cost_micros) AS cost, sum(${t}.unpriced_tokens) AS unpriced, sum(${t}.input) AS input,
  sum(${t}.output) AS output, sum(${t}.cache_read) AS cache_read, sum(${t}.cache_write) AS cache_write, sum(${t}.calls) AS calls`;

/** One cell as the statement sends it: [period, group, cost, unpriced, input, output, cache read, cache write, calls, daily]. */
type Cell = [string, string, number, number, number, number, number, number, number, boolean];

export interface UsageSeriesInput {
  bucket: Bucket;
  stack: StackBy;
  /** Inclusive first day and exclusive end, as the instants those local days start. */
  since?: Date;
  until?: Date;
  /** IANA zone for the periods; default the server's. */
  timeZone?: string;
}

export const serverTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone ?? "UTC";

/** The statement: the daily branch runs when usage_zone is $2, the rollup branch otherwise. */
function seriesSql(stack: StackBy): string {
  return `WITH z AS (SELECT time_zone = $2 AS daily FROM usage_zone WHERE id = 1),
  cells AS (
    SELECT CASE WHEN $1 = 'day' THEN d.day::timestamp ELSE date_trunc($1, d.day::timestamp) END AS period, d.grp, ${SUMS("d")}, true AS daily
    FROM usage_daily d
    WHERE (SELECT daily FROM z) AND d.stack = $5 AND d.calls > 0
      AND ($3::timestamptz IS NULL OR d.day >= ($3::timestamptz AT TIME ZONE $2)::date)
      AND ($4::timestamptz IS NULL OR d.day < ($4::timestamptz AT TIME ZONE $2)::date)
    GROUP BY 1, 2
    UNION ALL
    SELECT date_trunc($1, r.bucket AT TIME ZONE $2) AS period, ${ROLLUP_GROUP[stack]} AS grp, ${SUMS("r")}, false
    FROM usage_rollup r JOIN sessions s ON s.id = r.session_id
    WHERE NOT COALESCE((SELECT daily FROM z), false) AND r.calls > 0
      AND ($3::timestamptz IS NULL OR r.bucket >= $3) AND ($4::timestamptz IS NULL OR r.bucket < $4)
    GROUP BY 1, 2
  )
  SELECT COALESCE(json_agg(json_build_array(to_char(period, 'YYYY-MM-DD'), grp, cost, unpriced, input, output, cache_read,
    cache_write, calls, daily) ORDER BY period, grp), '[]')::text AS cells
  FROM cells`;
}

export async function usageSeries(input: UsageSeriesInput): Promise<SeriesCell[]> {
  const tz = input.timeZone ?? serverTimeZone();
  // The cells travel as one JSON text (a year by day is thousands of cells: one value to decode
  // instead of ten columns per row through the driver). Sums stay far below 2^53.
  const [row] = await getDb().$queryRawUnsafe<{ cells: string }[]>(seriesSql(input.stack), input.bucket, tz, input.since ?? null, input.until ?? null, input.stack);
  const cells = JSON.parse(row?.cells ?? "[]") as Cell[];
  // The server's own zone is the page's: keep usage_daily in it (once, after the server's zone changed).
  if (!input.timeZone && cells.length > 0 && !cells[0]![9]) await rezoneDaily(tz);
  return cells.map(([period, group, costMicros, unpricedTokens, input, output, cacheRead, cacheWrite, calls]) => ({
    period,
    group,
    costMicros,
    unpricedTokens,
    input,
    output,
    cacheRead,
    cacheWrite,
    calls,
  }));
}

/**
 * Rebuilds usage_daily in `timeZone` from usage_rollup, unless it is in that zone already.
 * It locks usage_daily against the ledger's writers while it rebuilds; a writer whose statement
 * read the old zone just before can still add one statement's rows to the old zone's day
 * (a rare race only when the server's zone changes; `usage rebuild` rebuilds it whole).
 */
export async function rezoneDaily(timeZone: string, opts: { force?: boolean } = {}): Promise<boolean> {
  return withTransaction(
    async (tx) => {
      await tx.$executeRawUnsafe("LOCK TABLE usage_daily IN EXCLUSIVE MODE");
      const [zone] = await tx.$queryRawUnsafe<{ time_zone: string }[]>("SELECT time_zone FROM usage_zone WHERE id = 1 FOR UPDATE");
      if (zone?.time_zone === timeZone && !opts.force) return false;
      await tx.$executeRawUnsafe("UPDATE usage_zone SET time_zone = $1 WHERE id = 1", timeZone);
      await tx.$executeRawUnsafe("DELETE FROM usage_daily");
      await tx.$executeRawUnsafe(
        `INSERT INTO usage_daily (stack, day, grp, cost_micros, unpriced_tokens, input, output, cache_read, cache_write, calls)
         SELECT k.stack, (r.bucket AT TIME ZONE $1)::date, k.grp, ${SUMS("r").replace(/ AS \w+/g, "")}
         FROM usage_rollup r JOIN sessions s ON s.id = r.session_id CROSS JOIN LATERAL arbor_usage_groups(r.model, s.cwd, s.header) k
         WHERE r.calls > 0 GROUP BY 1, 2, 3`,
        timeZone,
      );
      return true;
    },
    { timeoutMs: 120_000 },
  );
}
