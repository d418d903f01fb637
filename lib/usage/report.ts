/**
 * Ledger rows grouped by day, month or session, in the shape ccusage prints with `--json`, so
 * tools that read ccusage's output read Arbor's (docs/usage.md "CLI").
 *
 * Days and months are those of the local time zone (`TZ`), as ccusage's are. Costs are summed in
 * millionths of a dollar and printed as dollars; a group with an unpriced row says so in
 * `unpricedTokens` (Arbor's own field; ccusage has none) rather than counting it as free.
 */
import { type PriceOverrides, priceRow } from "./prices";
import type { UsageRow } from "./rows";

export interface LedgerRow extends UsageRow {
  sessionId: string;
  project?: string;
  agent?: string;
}

interface Tally {
  inputTokens: number;
  outputTokens: number;
  cacheCreationTokens: number;
  cacheReadTokens: number;
  costMicros: number;
  unpricedTokens: number;
}

export interface ModelBreakdown {
  modelName: string;
  inputTokens: number;
  outputTokens: number;
  cacheCreationTokens: number;
  cacheReadTokens: number;
  cost: number;
}

export interface GroupReport {
  inputTokens: number;
  outputTokens: number;
  cacheCreationTokens: number;
  cacheReadTokens: number;
  totalTokens: number;
  totalCost: number;
  modelsUsed: string[];
  modelBreakdowns: ModelBreakdown[];
  unpricedTokens?: number;
}

export type Period = "daily" | "monthly" | "session";

const empty = (): Tally => ({ inputTokens: 0, outputTokens: 0, cacheCreationTokens: 0, cacheReadTokens: 0, costMicros: 0, unpricedTokens: 0 });

function add(t: Tally, row: UsageRow, cost: number | undefined): void {
  t.inputTokens += row.input;
  t.outputTokens += row.output;
  t.cacheCreationTokens += row.cacheWrite;
  t.cacheReadTokens += row.cacheRead;
  if (cost === undefined) t.unpricedTokens += row.input + row.output + row.cacheRead + row.cacheWrite;
  else t.costMicros += cost;
}

const dollars = (micros: number) => micros / 1_000_000;

function pad(n: number): string {
  return String(n).padStart(2, "0");
}

/** The local calendar day of a time, YYYY-MM-DD. */
export function localDay(at: number): string {
  const d = new Date(at);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

function keyOf(period: Period, row: LedgerRow): string {
  if (period === "session") return row.sessionId;
  const day = localDay(row.at);
  return period === "monthly" ? day.slice(0, 7) : day;
}

function report(total: Tally, models: Map<string, Tally>): GroupReport {
  const breakdowns = [...models.entries()]
    .map(([modelName, t]) => ({
      modelName,
      inputTokens: t.inputTokens,
      outputTokens: t.outputTokens,
      cacheCreationTokens: t.cacheCreationTokens,
      cacheReadTokens: t.cacheReadTokens,
      cost: dollars(t.costMicros),
    }))
    .sort((a, b) => b.cost - a.cost);
  return {
    inputTokens: total.inputTokens,
    outputTokens: total.outputTokens,
    cacheCreationTokens: total.cacheCreationTokens,
    cacheReadTokens: total.cacheReadTokens,
    totalTokens: total.inputTokens + total.outputTokens + total.cacheCreationTokens + total.cacheReadTokens,
    totalCost: dollars(total.costMicros),
    modelsUsed: [...models.keys()],
    modelBreakdowns: breakdowns,
    ...(total.unpricedTokens ? { unpricedTokens: total.unpricedTokens } : {}),
  };
}

export interface UsageReport {
  groups: ({ key: string; lastActivity: number } & GroupReport)[];
  totals: Omit<GroupReport, "modelsUsed" | "modelBreakdowns">;
}

/** Groups rows by `period`, pricing each row (recorded cost first: prices.ts). */
export function buildReport(rows: readonly LedgerRow[], period: Period, overrides: PriceOverrides = {}): UsageReport {
  const groups = new Map<string, { total: Tally; models: Map<string, Tally>; last: number }>();
  const all = empty();
  for (const row of rows) {
    const cost = priceRow(row, overrides).costMicros;
    const key = keyOf(period, row);
    const g = groups.get(key) ?? { total: empty(), models: new Map<string, Tally>(), last: 0 };
    groups.set(key, g);
    add(g.total, row, cost);
    const m = g.models.get(row.model) ?? empty();
    g.models.set(row.model, m);
    add(m, row, cost);
    g.last = Math.max(g.last, row.at);
    add(all, row, cost);
  }
  const ordered = [...groups.entries()].sort(([a, ga], [b, gb]) => (period === "session" ? ga.last - gb.last : a < b ? -1 : a > b ? 1 : 0));
  const { modelsUsed: _m, modelBreakdowns: _b, ...totals } = report(all, new Map());
  return { groups: ordered.map(([key, g]) => ({ key, lastActivity: g.last, ...report(g.total, g.models) })), totals };
}

/** The report as ccusage's `--json` prints it for the same command. */
export function ccusageJson(r: UsageReport, period: Period): unknown {
  const rows = r.groups.map(({ key, lastActivity, ...rest }) => {
    if (period === "daily") return { date: key, ...rest };
    if (period === "monthly") return { month: key, ...rest };
    return { sessionId: key, ...rest, lastActivity: localDay(lastActivity) };
  });
  const name = period === "session" ? "sessions" : period;
  return { [name]: rows, totals: r.totals };
}
