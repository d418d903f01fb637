/** The Usage page's pivot, sort and CSV (lib/usage/series.ts). */
import { describe, expect, it } from "vitest";
import { cellsCsv, chartData, microsText, type SeriesCell, sortCells } from "./series";

const cell = (period: string, group: string, costMicros: number, input: number): SeriesCell => ({
  period, group, costMicros, unpricedTokens: 0, input, output: 10, cacheRead: 0, cacheWrite: 0, calls: 1,
});

const cells = [cell("2025-01-01", "sonnet", 1_500_000, 100), cell("2025-01-01", "opus", 9_000_000, 50), cell("2025-01-02", "sonnet", 250_000, 400)];

describe("usage series", () => {
  it("stacks each period's groups, the costliest group first", () => {
    const d = chartData(cells);
    expect(d.groups).toEqual(["opus", "sonnet"]);
    expect(d.cost).toEqual([{ period: "2025-01-01", sonnet: 1.5, opus: 9 }, { period: "2025-01-02", sonnet: 0.25 }]);
    expect(d.tokens).toEqual([{ period: "2025-01-01", sonnet: 110, opus: 60 }, { period: "2025-01-02", sonnet: 410 }]);
  });

  it("sorts the table by any column and the CSV follows the table's order with exact dollars", () => {
    expect(sortCells(cells, "cost", true).map((c) => c.costMicros)).toEqual([9_000_000, 1_500_000, 250_000]);
    expect(sortCells(cells, "tokens", false).map((c) => c.group + c.period)).toEqual(["opus2025-01-01", "sonnet2025-01-01", "sonnet2025-01-02"]);
    const lines = cellsCsv(sortCells(cells, "cost", true), "model").split("\r\n");
    expect(lines[1]).toBe("2025-01-01,opus,9.000000,0,50,10,0,0,60,1");
    expect(microsText(1_234_567)).toBe("1.234567");
    expect(cellsCsv([cell("2025-01-03", 'a,"b"', 5, 1)], "project").split("\r\n")[1]).toBe('2025-01-03,"a,""b""",0.000005,0,1,10,0,0,11,1');
  });
});
