/**
 * Import benchmark (lib/db/import/import.ts), and the imports the later sections need.
 *
 * - Throughput at 10k entries: median of 5 imports (as copies) against the median of 5 passes
 *   that only stream the same file through the import's LineReader and JSON.parse each line,
 *   the two interleaved.
 * - 100k entries (~85 MB): imported once in a child process (bench/import-child.ts) that samples
 *   its memory, against read + parse alone and against a whole-file engine load of the same file
 *   in other children. That import is also the 100k session of the open / append benchmarks. Its
 *   speed is the median of three more imports (as copies, deleted after), each in a child that
 *   samples nothing (the memory child's forced GCs cost ~0.3 s), against the median of three
 *   read + parse children.
 * - `--big`: the same for a ~100 MB file with compactions, branches and labels (the size).
 * - The secret scan an import runs on its stream (bench/secrets.ts), against the import (10k, 100k).
 * - The full-text rows an import leaves to a later step (lib/db/search/search-index.ts, run by the app in
 *   the background and by the CLI right after) are timed on their own, and with the import.
 */
import { stat } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildSearchIndex, importSession } from "@/lib/db";
import { LineReader } from "@/lib/db/import/line-reader";
import type { BenchDatabase } from "./lib/database";
import { type BenchSession, benchSession, label } from "./lib/sessions";
import { runChild } from "./lib/child";
import { addRow, formatMb, formatMs, formatRatio, MB, median } from "./lib/stats";
import { secretScanRows } from "./secrets";

/** Session ids by entry count: 10 and 100 (small baselines), 1k, 10k, 100k. */
export type Imported = Map<number, { id: string; session: BenchSession }>;

interface ChildResult {
  ms: number;
  entries: number;
  sessionId?: string;
  base: { rss: number; heapUsed: number };
  peak: { rss: number; heapUsed: number };
  /** Largest heap right after a forced full GC (import-child.ts). */
  live: number;
}

const childScript = path.join(path.dirname(fileURLToPath(import.meta.url)), "import-child.ts");

function child(args: string[]): Promise<ChildResult> {
  return runChild<ChildResult>(childScript, args);
}

export async function readAndParse(file: string): Promise<number> {
  const reader = new LineReader({ source: file, file, maxBytes: Number.POSITIVE_INFINITY, maxLineLength: 64 * MB });
  let n = 0;
  for await (const { text } of reader.lines()) {
    if (text === "") continue;
    JSON.parse(text);
    n++;
  }
  return n;
}

/** Imports the sessions of the other sections: 10, 100, 1k, 10k in-process, 100k in the memory child. */
export async function importSessions(db: BenchDatabase, sessions: BenchSession[], dir: string, opts: { big: boolean }): Promise<Imported> {
  const imported: Imported = new Map();
  const small = [await benchSession(10, dir), await benchSession(100, dir), ...sessions.filter((s) => s.n < 100_000)];
  for (const s of small) imported.set(s.n, { id: (await importSession({ source: s.file })).sessionId, session: s });
  const big = sessions.find((s) => s.n === 100_000);
  if (big && opts.big) {
    console.log(`\nimporting ${label(big.n)} entries (${formatMb(big.bytes)}) in a child process…`);
    const r = await child(["import", big.file, db.url, small[0]!.file]);
    imported.set(big.n, { id: r.sessionId!, session: big });
    childImport = r;
    const t = performance.now();
    await buildSearchIndex(r.sessionId!);
    bigSearchMs = performance.now() - t;
  }
  return imported;
}

let childImport: ChildResult | undefined;
let bigSearchMs = 0;

/** The search-index step after an import: alone, and import + it, against read + parse. */
function searchRows(s: { n: number; bytes: number }, importMs: number, searchMs: number, parseMs: number): void {
  addRow({
    section: "import",
    name: "buildSearchIndex after the import (background step)",
    n: label(s.n),
    value: formatMs(searchMs),
    baseline: `read + JSON.parse ${formatMs(parseMs)}`,
    ratio: searchMs / parseMs,
    note: `import + this step ${formatMs(importMs + searchMs)}: ${(s.bytes / MB / ((importMs + searchMs) / 1000)).toFixed(1)} MB/s, ${((importMs + searchMs) / parseMs).toFixed(1)}× read + parse`,
  });
}

/**
 * The median of RUNS runs of a timing child (`time`, `parse`), one process each: a single
 * import of 100k entries moved by ±20 % between runs on this machine.
 */
async function medianChild(args: string[]): Promise<ChildResult & { runs: string; note: string }> {
  const results: ChildResult[] = [];
  for (let i = 0; i < RUNS; i++) results.push(await child(args));
  const shown = results.map((r) => formatMs(r.ms)).join(" / ");
  const runs = `median of ${RUNS} runs (${shown})`;
  // The first run's other figures (the parse child's memory samples) stand for all.
  return { ...results[0]!, ms: median(results.map((r) => r.ms)), runs, note: `${runs}, each in its own child process, not sampled` };
}
const RUNS = 3;

function throughput(name: string, s: { n: number; bytes: number }, importMs: number, parseMs: number, note?: string): void {
  const perSec = (s.n / importMs) * 1000;
  const mbPerSec = s.bytes / MB / (importMs / 1000);
  const baseMbPerSec = s.bytes / MB / (parseMs / 1000);
  const n = label(s.n);
  addRow({
    section: "import",
    name,
    n,
    value: `${formatMs(importMs)}: ${Math.round(perSec).toLocaleString("en")} entries/s, ${mbPerSec.toFixed(1)} MB/s`,
    baseline: `read + JSON.parse ${formatMs(parseMs)} (${baseMbPerSec.toFixed(0)} MB/s)`,
    ratio: importMs / parseMs,
    ...(note ? { note } : {}),
  });
}

type Kind = "rss" | "heapUsed";
const growth = (r: ChildResult, k: Kind) => r.peak[k] - r.base[k];
const what = (k: Kind) => (k === "rss" ? "RSS" : "heap");

/** Peak memory of the streamed import against a whole-file engine load of the same file. */
function memoryRows(n: string, imp: ChildResult, load: ChildResult, parse: ChildResult, bytes: number): void {
  for (const k of ["rss", "heapUsed"] as const) {
    addRow({
      section: "import",
      name: `peak ${what(k)} while importing`,
      n,
      value: `${formatMb(imp.peak[k])} (+${formatMb(growth(imp, k))})`,
      baseline: `whole-file engine load ${formatMb(load.peak[k])} (+${formatMb(growth(load, k))})`,
      ratio: growth(imp, k) / growth(load, k),
      note: `growth over the process's baseline; file ${formatMb(bytes)}; read + parse alone +${formatMb(growth(parse, k))}`,
    });
  }
}

/** Streaming: what the import holds follows the batch, not the file; 100k vs 10k should be ≈ 1. */
function boundRows(big: { imp: ChildResult; load: ChildResult }, small: { imp: ChildResult; load: ChildResult }): void {
  const live = (r: ChildResult) => r.live - r.base.heapUsed;
  addRow({
    section: "import",
    name: "live heap growth (after full GC), 10× the file",
    n: "100k vs 10k",
    value: `+${formatMb(live(big.imp))}`,
    baseline: `+${formatMb(live(small.imp))}`,
    ratio: live(big.imp) / live(small.imp),
    note: `whole-file load: +${formatMb(live(big.load))} vs +${formatMb(live(small.load))}, ${formatRatio(live(big.load) / live(small.load))}`,
  });
}

export async function importBench(db: BenchDatabase, sessions: BenchSession[], imported: Imported): Promise<void> {
  console.log("\nimport: throughput vs reading and parsing the file alone");
  const mid = sessions.find((s) => s.n === 10_000);
  if (mid) {
    // Interleaved, so noise from other processes hits both alike.
    await readAndParse(mid.file);
    const parse: number[] = [];
    const imp: number[] = [];
    const search: number[] = [];
    for (let i = 0; i < 5; i++) {
      let t = performance.now();
      await readAndParse(mid.file);
      parse.push(performance.now() - t);
      t = performance.now();
      const { sessionId } = await importSession({ source: mid.file, asCopy: true });
      imp.push(performance.now() - t);
      t = performance.now();
      await buildSearchIndex(sessionId);
      search.push(performance.now() - t);
    }
    throughput("importSession", mid, median(imp), median(parse), "median of 5");
    searchRows(mid, median(imp), median(search), median(parse));
    await secretScanRows(mid, median(imp), median(parse), "median of 5");
  }
  const big = imported.get(100_000);
  if (big && childImport && mid) {
    const warm = imported.get(10)!.session.file;
    const parse = await medianChild(["parse", big.session.file]);
    const load = await child(["load", big.session.file]);
    const timed = await medianChild(["time", big.session.file, db.url, warm]);
    throughput("importSession", big.session, timed.ms, parse.ms, `${timed.note}; read + parse: ${parse.runs}`);
    searchRows(big.session, timed.ms, bigSearchMs, parse.ms);
    await secretScanRows(big.session, timed.ms, parse.ms, timed.runs);
    memoryRows(label(big.session.n), childImport, load, parse, big.session.bytes);
    const smallImp = await child(["import", mid.file, db.url, warm, "copy"]);
    const smallLoad = await child(["load", mid.file]);
    boundRows({ imp: childImport, load }, { imp: smallImp, load: smallLoad });
  }
}

/** `--big`: a ~100 MB synthetic file (written by a child), imported with memory sampling. */
export async function bigImportBench(db: BenchDatabase, dir: string): Promise<void> {
  const file = path.join(dir, "big-100mb.jsonl");
  console.log("\nimport --big: writing a ~100 MB synthetic session…");
  await child(["write", file, String(Math.ceil((100 * MB) / 880))]);
  const bytes = (await stat(file)).size;
  const warm = (await benchSession(10, dir)).file;
  const imp = await child(["import", file, db.url, warm]);
  const parse = await medianChild(["parse", file]);
  const load = await child(["load", file]);
  const timed = await medianChild(["time", file, db.url, warm]);
  const s = { n: imp.entries, bytes };
  throughput("importSession (100 MB file)", s, timed.ms, parse.ms, `${timed.note}; read + parse: ${parse.runs}`);
  memoryRows(formatMb(bytes), imp, load, parse, bytes);
}
