import "server-only";
/**
 * The Usage page's sums (lib/usage/series.ts): counted ledger rows grouped by period (in the
 * time zone given, default the server's) and by model, project (the session's cwd) or agent
 * (the format the session came from; Arbor's own sessions are "pi"). One statement over the
 * pre-aggregated usage_rollup (counted sums per session, 15-minute UTC bucket and model, kept by
 * usage_rows' triggers, migration 20270123000000) joined to the sessions: a local day, week or
 * month in any zone in use today is a union of quarter hours, so the sums equal the ledger's.
 * No ledger row or entry is read.
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
    `SELECT to_char(date_trunc($1, u.bucket AT TIME ZONE $2), 'YYYY-MM-DD') AS period, ${GROUP[input.stack]} AS grp,
       sum(u.cost_micros) AS cost, sum(u.unpriced_tokens) AS unpriced,
       sum(u.input) AS input, sum(u.output) AS output, sum(u.cache_read) AS cache_read, sum(u.cache_write) AS cache_write,
       sum(u.calls) AS calls
     FROM usage_rollup u JOIN sessions s ON s.id = u.session_id
     WHERE u.calls > 0 AND ($3::timestamptz IS NULL OR u.bucket >= $3) AND ($4::timestamptz IS NULL OR u.bucket < $4)
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
