/**
 * Timing and reporting helpers of the benchmarks (bench/run.ts). Not tests: nothing here
 * asserts on a time. Every figure is reported next to a baseline measured in the same run on
 * the same data, so the ratio still means something on a noisy machine.
 */
import v8 from "node:v8";
import vm from "node:vm";

/** Median of a non-empty list (mean of the two middle values for an even length). */
/** How long `fn` took (ms), and what it returned. */
export async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t = performance.now();
  const value = await fn();
  return [performance.now() - t, value];
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** How many calls of `fn` make a sample of about `minSampleMs` (after one warm-up call). */
export function calibrate(fn: () => unknown, minSampleMs = 40, teardown?: () => void): number {
  fn();
  teardown?.();
  const t = performance.now();
  fn();
  const once = Math.max(performance.now() - t, 0.001);
  teardown?.();
  return Math.max(1, Math.ceil(minSampleMs / once));
}

/**
 * One sample: the mean time (ms) of `inner` calls of `fn`. With `teardown` (e.g. undoing a
 * prune, which mutates its input) each call is timed on its own and `teardown` runs untimed
 * after it.
 */
export function sampleSync(fn: () => unknown, inner: number, teardown?: () => void): number {
  if (!teardown) {
    const t = performance.now();
    for (let i = 0; i < inner; i++) fn();
    return (performance.now() - t) / inner;
  }
  let total = 0;
  for (let i = 0; i < inner; i++) {
    const t = performance.now();
    fn();
    total += performance.now() - t;
    teardown();
  }
  return total / inner;
}

/** One line of the result table. */
export interface Row {
  section: string;
  name: string;
  /** Entries in the session (or another size: "100 MB"). */
  n: string;
  /** The measured figure, already formatted (e.g. "12.3 ms", "48 ns/entry"). */
  value: string;
  /** What it is compared with, formatted, and what that baseline is. */
  baseline: string;
  ratio: number | undefined;
  note?: string;
}

export const rows: Row[] = [];

export function addRow(row: Row): void {
  rows.push(row);
  const ratio = row.ratio === undefined ? "" : ` (ratio ${formatRatio(row.ratio)})`;
  console.log(`  ${row.name} [${row.n}]: ${row.value} vs ${row.baseline}${ratio}${row.note ? ` — ${row.note}` : ""}`);
}

export function formatRatio(r: number | undefined): string {
  if (r === undefined || !Number.isFinite(r)) return "–";
  if (r >= 100) return `${r.toFixed(0)}×`;
  if (r >= 10) return `${r.toFixed(1)}×`;
  return `${r.toFixed(2)}×`;
}

/** A duration with a unit that keeps 2–3 significant digits. */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return "–";
  if (ms >= 10_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms >= 100) return `${ms.toFixed(0)} ms`;
  if (ms >= 1) return `${ms.toFixed(2)} ms`;
  if (ms >= 0.001) return `${(ms * 1000).toFixed(1)} µs`;
  return `${(ms * 1e6).toFixed(0)} ns`;
}

/** Per-entry cost in ns. */
export function formatNs(ns: number): string {
  return ns >= 1000 ? `${(ns / 1000).toFixed(2)} µs/entry` : `${ns.toFixed(0)} ns/entry`;
}

export const MB = 1024 * 1024;
export const formatMb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;

/** The table as GitHub markdown (the same text is printed and pasted into docs/benchmarks.md). */
export function markdownTable(list: readonly Row[] = rows): string {
  const head = "| section | measurement | n | median | baseline | ratio | notes |\n|---|---|---|---|---|---|---|";
  const cell = (text: string) => text.replaceAll("|", "\\|");
  const body = list.map(
    (r) => `| ${r.section} | ${cell(r.name)} | ${r.n} | ${cell(r.value)} | ${cell(r.baseline)} | ${formatRatio(r.ratio)} | ${cell(r.note ?? "")} |`,
  );
  return [head, ...body].join("\n");
}

let gc: (() => void) | undefined;

/**
 * A full garbage collection (V8's `gc`, exposed on first use). Before a timed series, so it is not
 * timed while V8 collects what the bench did before it (the history bench's floor parses every
 * line of ~1 GB just before its list is timed at 10,000 sessions; its baseline at 100 was timed in
 * a fresh heap); in the memory children, before a heap is read as what the work holds.
 */
export function collectGarbage(): void {
  if (!gc) {
    v8.setFlagsFromString("--expose-gc");
    gc = vm.runInNewContext("gc") as () => void;
  }
  gc();
}
