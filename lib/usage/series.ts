/**
 * The Usage page's figures (docs/usage.md "Usage page"): ledger sums per period and group,
 * pivoted for a stacked chart, and the same figures as table rows and CSV. Pure.
 */
export type Bucket = "day" | "week" | "month";
export type StackBy = "model" | "project" | "agent";

export const BUCKETS: readonly Bucket[] = ["day", "week", "month"];
export const STACKS: readonly StackBy[] = ["model", "project", "agent"];

/** One period × group sum (the database sums them: lib/db/usage/ledger-series.ts). */
export interface SeriesCell {
  /** The period's first day, YYYY-MM-DD (weeks start on Monday). */
  period: string;
  group: string;
  costMicros: number;
  /** Tokens of rows whose price is unknown (their cost is not in costMicros). */
  unpricedTokens: number;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  calls: number;
}

export interface ChartData {
  /** Groups by total cost, largest first (the stack's order). */
  groups: string[];
  /** One point per period: `period`, then each group's dollars (cost) or tokens. */
  cost: Record<string, string | number>[];
  tokens: Record<string, string | number>[];
}

export const cellTokens = (c: Pick<SeriesCell, "input" | "output" | "cacheRead" | "cacheWrite">) => c.input + c.output + c.cacheRead + c.cacheWrite;

/** The cells as stacked-chart points, periods in order. */
export function chartData(cells: readonly SeriesCell[]): ChartData {
  const totals = new Map<string, number>();
  for (const c of cells) totals.set(c.group, (totals.get(c.group) ?? 0) + c.costMicros + cellTokens(c) / 1e9);
  const groups = [...totals.entries()].sort((a, b) => b[1] - a[1]).map(([g]) => g);
  const periods = [...new Set(cells.map((c) => c.period))].sort();
  const index = new Map(periods.map((p, i) => [p, i]));
  const cost = periods.map((period) => ({ period }) as Record<string, string | number>);
  const tokens = periods.map((period) => ({ period }) as Record<string, string | number>);
  for (const c of cells) {
    const i = index.get(c.period)!;
    cost[i]![c.group] = (Number(cost[i]![c.group] ?? 0) * 1e6 + c.costMicros) / 1e6;
    tokens[i]![c.group] = Number(tokens[i]![c.group] ?? 0) + cellTokens(c);
  }
  return { groups, cost, tokens };
}

export type SortKey = "period" | "group" | "cost" | "tokens" | "input" | "output" | "cacheRead" | "cacheWrite" | "calls";

const sortValue = (c: SeriesCell, key: SortKey): string | number =>
  key === "period" ? c.period : key === "group" ? c.group : key === "cost" ? c.costMicros : key === "tokens" ? cellTokens(c) : c[key];

/** The table's rows sorted by `key` (ties by period, then group). */
export function sortCells(cells: readonly SeriesCell[], key: SortKey, descending: boolean): SeriesCell[] {
  const sign = descending ? -1 : 1;
  return [...cells].sort((a, b) => {
    const x = sortValue(a, key);
    const y = sortValue(b, key);
    if (x !== y) return (x < y ? -1 : 1) * sign;
    return a.period < b.period ? -1 : a.period > b.period ? 1 : a.group < b.group ? -1 : a.group > b.group ? 1 : 0;
  });
}

/** Millionths of a dollar as a plain decimal string with six places (exact: no float). */
export function microsText(micros: number): string {
  const sign = micros < 0 ? "-" : "";
  const abs = Math.abs(micros);
  return `${sign}${Math.floor(abs / 1_000_000)}.${String(abs % 1_000_000).padStart(6, "0")}`;
}

function csvField(value: string): string {
  return /[",\n\r]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** The table as CSV (RFC 4180), one line per row in the table's order, costs in dollars. */
export function cellsCsv(cells: readonly SeriesCell[], groupLabel: string): string {
  const head = ["period", groupLabel, "cost_usd", "unpriced_tokens", "input", "output", "cache_read", "cache_write", "total_tokens", "calls"];
  const lines = cells.map((c) =>
    [c.period, c.group, microsText(c.costMicros), c.unpricedTokens, c.input, c.output, c.cacheRead, c.cacheWrite, cellTokens(c), c.calls]
      .map((v) => csvField(String(v)))
      .join(","),
  );
  return `${[head.join(","), ...lines].join("\r\n")}\r\n`;
}
