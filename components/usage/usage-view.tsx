"use client";
/**
 * The Usage page's chart and table (docs/usage.md "Usage page"): one stacked bar per period
 * (recharts), cost or tokens, and the same cells as a sortable table with a CSV download of
 * exactly the rows shown, in the order shown.
 */
import { useMemo, useState } from "react";
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatMicros } from "@/lib/usage/prices";
import { cellTokens, cellsCsv, chartData, type SeriesCell, type SortKey, sortCells } from "@/lib/usage/series";

const COLORS = ["#2563eb", "#16a34a", "#db2777", "#ca8a04", "#7c3aed", "#0891b2", "#ea580c", "#4b5563"];

const COLUMNS: { key: SortKey; label: string }[] = [
  { key: "period", label: "Period" },
  { key: "group", label: "" },
  { key: "cost", label: "Cost" },
  { key: "tokens", label: "Tokens" },
  { key: "input", label: "Input" },
  { key: "output", label: "Output" },
  { key: "cacheRead", label: "Cache read" },
  { key: "cacheWrite", label: "Cache write" },
  { key: "calls", label: "Calls" },
];

const n = (v: number) => v.toLocaleString("en-US");

export function UsageView({ cells, groupLabel }: { cells: SeriesCell[]; groupLabel: string }) {
  const [metric, setMetric] = useState<"cost" | "tokens">("cost");
  const [sort, setSort] = useState<{ key: SortKey; descending: boolean }>({ key: "period", descending: false });
  const data = useMemo(() => chartData(cells), [cells]);
  const rows = useMemo(() => sortCells(cells, sort.key, sort.descending), [cells, sort]);
  const total = cells.reduce((s, c) => s + c.costMicros, 0);
  const tokens = cells.reduce((s, c) => s + cellTokens(c), 0);
  const unpriced = cells.reduce((s, c) => s + c.unpricedTokens, 0);

  const download = () => {
    const blob = new Blob([cellsCsv(rows, groupLabel)], { type: "text/csv" });
    const url = URL.createObjectURL(blob);
    const a = document.createElement("a");
    a.href = url;
    a.download = "arbor-usage.csv";
    a.click();
    URL.revokeObjectURL(url);
  };

  if (cells.length === 0) return <p className="text-sm text-muted">No recorded usage in this range.</p>;
  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm" data-testid="usage-total">
        <strong>{formatMicros(total)}</strong> · {n(tokens)} tokens{unpriced > 0 ? ` · ${n(unpriced)} tokens price unknown` : ""}
      </p>
      <fieldset className="flex gap-2 text-sm" aria-label="Chart metric">
        {(["cost", "tokens"] as const).map((m) => (
          <button key={m} type="button" aria-pressed={metric === m} onClick={() => setMetric(m)} className={`rounded border border-line px-2 py-0.5 ${metric === m ? "bg-line/40" : ""}`}>
            {m === "cost" ? "Spend ($)" : "Tokens"}
          </button>
        ))}
      </fieldset>
      <div className="h-72 w-full" data-testid="usage-chart">
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={metric === "cost" ? data.cost : data.tokens}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="period" />
            <YAxis />
            <Tooltip />
            <Legend />
            {data.groups.map((g, i) => (
              <Bar key={g} dataKey={g} stackId="usage" fill={COLORS[i % COLORS.length]} isAnimationActive={false} />
            ))}
          </BarChart>
        </ResponsiveContainer>
      </div>
      <div className="flex justify-end">
        <button type="button" onClick={download} className="rounded border border-line px-3 py-1 text-sm hover:bg-line/30">
          Download CSV
        </button>
      </div>
      <table className="w-full text-sm" data-testid="usage-table">
        <thead>
          <tr>
            {COLUMNS.map((c) => (
              <th
                key={c.key}
                className="text-left"
                aria-sort={sort.key === c.key ? (sort.descending ? "descending" : "ascending") : "none"}
              >
                <button type="button" onClick={() => setSort((s) => ({ key: c.key, descending: s.key === c.key ? !s.descending : c.key !== "period" && c.key !== "group" }))}>
                  {c.label || groupLabel}
                </button>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((c) => (
            <tr key={`${c.period}\u0000${c.group}`} className="border-t border-line">
              <td>{c.period}</td>
              <td>{c.group}</td>
              <td>{c.unpricedTokens > 0 && c.costMicros === 0 ? "price unknown" : formatMicros(c.costMicros)}</td>
              <td>{n(cellTokens(c))}</td>
              <td>{n(c.input)}</td>
              <td>{n(c.output)}</td>
              <td>{n(c.cacheRead)}</td>
              <td>{n(c.cacheWrite)}</td>
              <td>{n(c.calls)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
