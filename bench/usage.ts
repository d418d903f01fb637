/**
 * The Usage page at 10,000 sessions (docs/usage.md, docs/benchmarks.md "Usage"): the server time
 * of the statements the page runs (`usageSeries`, in-process, as app/usage/page.tsx calls it)
 * against the session list's first page (`listSessions`, as app/page.tsx calls it: the page, its
 * secret counts and its costs) in the same run on the same database. Target: ≤ 100 ms and ≤ 2×.
 * Also measured: the list's first page by cost, and the page's old statement (the same sums over
 * the ledger's rows, before the rollup) to show what the pre-aggregation buys.
 * Rounds interleave every measurement (25 measured after 2 warm-up), medians reported. The old
 * statement (seconds over 600k rows) is timed apart, after them (5 runs), so it cannot slow its
 * neighbours in the rounds.
 */
import { listSessions, usageSeries, type UsageSeriesInput } from "@/lib/db";
import { getDb } from "@/lib/db/client";
import type { BenchDatabase } from "./lib/database";
import { seedUsage } from "./lib/usage-seed";
import { addRow, formatMs, median } from "./lib/stats";

const SESSIONS = 10_000;
const ROUNDS = 25;
const TZ = "UTC";

/** The page's statement as it was before the rollup (the ledger's rows, grouped), for comparison. */
function ledgerSeries(): Promise<unknown[]> {
  return getDb().$queryRawUnsafe(
    `SELECT to_char(date_trunc('day', u.at AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS period, u.model AS grp,
       COALESCE(sum(u.cost_micros), 0) AS cost,
       COALESCE(sum(u.input + u.output + u.cache_read + u.cache_write) FILTER (WHERE u.cost_micros IS NULL), 0) AS unpriced,
       sum(u.input), sum(u.output), sum(u.cache_read), sum(u.cache_write), count(*)
     FROM usage_rows u JOIN sessions s ON s.id = u.session_id WHERE u.counted GROUP BY 1, 2 ORDER BY 1, 2`,
  );
}

async function time(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

export async function usageBench(db: BenchDatabase): Promise<void> {
  console.log(`\nusage: seeding ${SESSIONS.toLocaleString("en")} sessions' ledgers …`);
  const seeded = await seedUsage(SESSIONS);
  const [counts] = await getDb().$queryRawUnsafe<{ rows: bigint; rollup: bigint }[]>(
    "SELECT (SELECT count(*) FROM usage_rows) AS rows, (SELECT count(*) FROM usage_rollup) AS rollup",
  );
  await getDb().$executeRawUnsafe("ANALYZE usage_rows; ANALYZE usage_rollup; ANALYZE sessions");
  const data = `${seeded.rows.toLocaleString("en")} ledger rows, ${Number(counts?.rollup ?? 0).toLocaleString("en")} rollup rows; seeded in ${formatMs(seeded.ms)} through insertSessionRow + writeLedger (${((seeded.rows / seeded.ms) * 1000).toFixed(0)} rows/s, triggers included)`;
  console.log(`  ${data}`);

  const since = new Date(Date.parse("2026-10-01T00:00:00Z"));
  const until = new Date(Date.parse("2026-11-01T00:00:00Z"));
  const page = (input: Omit<UsageSeriesInput, "timeZone">) => () => usageSeries({ ...input, timeZone: TZ });
  const cases: [string, () => Promise<unknown>][] = [
    ["list: first page (baseline)", () => listSessions({ limit: 50 })],
    ["Usage page: all time by day, stacked by model (the default)", page({ bucket: "day", stack: "model" })],
    ["Usage page: all time by month, stacked by project", page({ bucket: "month", stack: "project" })],
    ["Usage page: all time by week, stacked by agent", page({ bucket: "week", stack: "agent" })],
    ["Usage page: one month by day, stacked by model", page({ bucket: "day", stack: "model", since, until })],
    ["list: first page by cost", () => listSessions({ limit: 50, sort: "cost" })],
  ];
  const samples = cases.map(() => [] as number[]);
  for (let round = 0; round < ROUNDS + 2; round++) {
    for (const [i, [, fn]] of cases.entries()) {
      const ms = await time(fn);
      if (round >= 2) samples[i]!.push(ms);
    }
  }
  const before: number[] = [];
  for (let i = 0; i < 5; i++) before.push(await time(ledgerSeries));
  cases.push(["the default page's sums over the ledger's rows (before the rollup; timed apart)", ledgerSeries]);
  samples.push(before);
  const base = median(samples[0]!);
  for (const [i, [name]] of cases.entries()) {
    const ms = median(samples[i]!);
    const isPage = name.startsWith("Usage page");
    addRow({
      section: "usage",
      name,
      n: "10k sessions",
      value: formatMs(ms),
      baseline: i === 0 ? "—" : `list first page ${formatMs(base)}`,
      ratio: i === 0 ? undefined : ms / base,
      note: `${isPage ? "target ≤ 100 ms, ≤ 2×; " : ""}min ${formatMs(Math.min(...samples[i]!))}, max ${formatMs(Math.max(...samples[i]!))}${i === 0 ? `; ${data}` : ""}`,
    });
  }
}
