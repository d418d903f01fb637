import "server-only";
/**
 * The Usage page's sums (lib/usage/series.ts): counted ledger rows grouped by period (in the
 * time zone given, default the server's) and by model, project (the session's cwd) or agent
 * (the format the session came from; Arbor's own sessions are "pi"). One statement, summed in
 * PostgreSQL on the index usage_rows(counted, at): no session or entry is read.
 */
import type { Bucket, SeriesCell, StackBy } from "@/lib/usage/series";
import { getDb } from "../client";

const GROUP: Record<StackBy, string> = {
  model: "u.model",
  project: "COALESCE(NULLIF(s.cwd, ''), '(no project)')",
  agent: "COALESCE(s.header ->> 'sourceFormat', 'pi')",
};

interface Row {
  period: string;
  grp: string;
  cost: bigint;
  unpriced: bigint;
  input: bigint;
  output: bigint;
  cache_read: bigint;
  cache_write: bigint;
  calls: bigint;
}

export interface UsageSeriesInput {
  bucket: Bucket;
  stack: StackBy;
  /** Inclusive first day and exclusive end, as instants. */
  since?: Date;
  until?: Date;
  /** IANA zone for the periods; default the server's. */
  timeZone?: string;
}

export async function usageSeries(input: UsageSeriesInput): Promise<SeriesCell[]> {
  const tz = input.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone ?? "UTC";
  const rows = await getDb().$queryRawUnsafe<Row[]>(
    `SELECT to_char(date_trunc($1, u.at AT TIME ZONE $2), 'YYYY-MM-DD') AS period, ${GROUP[input.stack]} AS grp,
       COALESCE(sum(u.cost_micros), 0) AS cost,
       COALESCE(sum(u.input + u.output + u.cache_read + u.cache_write) FILTER (WHERE u.cost_micros IS NULL), 0) AS unpriced,
       sum(u.input) AS input, sum(u.output) AS output, sum(u.cache_read) AS cache_read, sum(u.cache_write) AS cache_write,
       count(*) AS calls
     FROM usage_rows u JOIN sessions s ON s.id = u.session_id
     WHERE u.counted AND ($3::timestamptz IS NULL OR u.at >= $3) AND ($4::timestamptz IS NULL OR u.at < $4)
     GROUP BY 1, 2 ORDER BY 1, 2`,
    input.bucket,
    tz,
    input.since ?? null,
    input.until ?? null,
  );
  return rows.map((r) => ({
    period: r.period,
    group: r.grp,
    costMicros: Number(r.cost),
    unpricedTokens: Number(r.unpriced),
    input: Number(r.input),
    output: Number(r.output),
    cacheRead: Number(r.cache_read),
    cacheWrite: Number(r.cache_write),
    calls: Number(r.calls),
  }));
}
