/**
 * `npm run bench -- --history`: a user's whole history (docs/benchmarks.md "History").
 *
 * A seeded home folder (test/generators/history.ts: 2,000 files, ~1 GB, at `--history-scale 1`;
 * `--history-scale 0.1` or ARBOR_BENCH_HISTORY_SCALE=0.1 for 200 files) is synced into a fresh
 * database, and every row is measured beside its floor in the same run:
 * - first sync of the agent folders, search rows included (syncFolders, then the background
 *   builds awaited), vs reading every file and JSON.parse of every line (documents: whole);
 *   the sync runs in a process of its own (bench/history-sync-child.ts), whose peak RSS is the
 *   memory row (sampled every 25 ms);
 * - sync with nothing changed vs `stat` of every file (median of 3 each);
 * - import of a 30 MB pi session, search rows included (what `arbor import` runs: importSession,
 *   which writes them in its transaction; buildSearchIndex after it, which then finds nothing
 *   left, so the row includes them whatever the path) vs read + JSON.parse of its lines (median
 *   of 2 each, interleaved);
 * - the session list's first page at 10,000 sessions vs at 100 (median of 15 each): the
 *   sessions past the synced ones are seeded by SQL (bench/lib/history-seed.ts);
 * - search across the 10,000 sessions: p50 / p99 of 40 searches (one, two and prefix words).
 * `--history-rows unchanged,import,list,search,live,page` measures only those rows after the first
 * sync (which every run makes, and reports): e.g. `--history-rows unchanged` for the unchanged sync.
 * After these, run.ts measures the issue's last two rows: an appended line reaching the open page
 * (`live`, bench/live.ts) and the 100k-entry session's first tree node against a 10-entry
 * session's (`page`, bench/canvas.ts in its `hugeOnly` form; builds the app when it changed).
 */
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildSearchIndex, importSession, listSessions, sessionFacets } from "@/lib/db";
import { syncFolders } from "@/lib/sync/sync-folders";
import { generateHistory } from "@/test/generators/history";
import { historyCounts, SEED_WORDS, seedSessions } from "./lib/history-seed";
import { runChild } from "./lib/child";
import { benchSession } from "./lib/sessions";
import { readAndParse } from "./import";
import { addRow, collectGarbage, formatMb, formatMs, MB, median, timed } from "./lib/stats";

const SECTION = "history";

/** The scale: `--history-scale X`, else ARBOR_BENCH_HISTORY_SCALE, else 1. */
export function historyScale(args: readonly string[]): number {
  const i = args.indexOf("--history-scale");
  const raw = i >= 0 ? args[i + 1] : process.env.ARBOR_BENCH_HISTORY_SCALE;
  const n = raw === undefined ? 1 : Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`bench: --history-scale must be a positive number, got ${raw}`);
  return n;
}

/** Read + JSON.parse of every record: each line of a .jsonl, a whole .json document. */
async function parseFloor(files: readonly string[]): Promise<number> {
  const t = performance.now();
  for (const file of files) {
    const text = await readFile(file, "utf8");
    if (!file.endsWith(".jsonl")) {
      JSON.parse(text);
      continue;
    }
    for (const line of text.split("\n")) if (line !== "") JSON.parse(line);
  }
  return performance.now() - t;
}

async function statFloor(files: readonly string[]): Promise<number> {
  const t = performance.now();
  for (const file of files) await stat(file);
  return performance.now() - t;
}

interface SyncChildResult {
  syncMs: number;
  idleMs: number;
  base: number;
  peak: number;
  counts: Record<string, number>;
  failed: { file: string; outcome: unknown }[];
  fileMs: [string, number][];
}

const syncChildScript = path.join(path.dirname(fileURLToPath(import.meta.url)), "history-sync-child.ts");

/** The first sync in a process of its own (bench/history-sync-child.ts), on the bench's database. */
function syncChild(dbUrl: string, folders: readonly string[]): Promise<SyncChildResult> {
  return runChild<SyncChildResult>(syncChildScript, [dbUrl, JSON.stringify(folders)]);
}

async function listMs(runs: number, query?: string): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) out.push((await timed(() => listSessions(query ? { query } : {})))[0]);
  return out;
}

async function facetsMs(runs: number): Promise<number[]> {
  await sessionFacets();
  const out: number[] = [];
  for (let i = 0; i < runs; i++) out.push((await timed(() => sessionFacets()))[0]);
  return out;
}

/** `live` and `page` are measured by run.ts after this file's rows (bench/live.ts, bench/canvas.ts). */
const HISTORY_ROWS = ["unchanged", "import", "list", "search", "live", "page"] as const;
type HistoryRow = (typeof HISTORY_ROWS)[number];

/** The rows asked for by `--history-rows a,b` (all by default). */
export function historyRows(args: readonly string[]): Set<HistoryRow> {
  const i = args.indexOf("--history-rows");
  if (i < 0) return new Set(HISTORY_ROWS);
  const rows = (args[i + 1] ?? "").split(",");
  const unknown = rows.filter((r) => !(HISTORY_ROWS as readonly string[]).includes(r));
  if (unknown.length > 0) throw new Error(`bench: --history-rows takes ${HISTORY_ROWS.join(", ")}; got ${unknown.join(", ")}`);
  return new Set(rows as HistoryRow[]);
}

export const pct = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))]!;

export async function historyBench(dir: string, args: readonly string[], dbUrl: string): Promise<void> {
  const scale = historyScale(args);
  const rows = historyRows(args);
  const fileCount = Math.max(20, Math.round(2000 * scale));
  console.log(`\nhistory: writing ${fileCount} session files (scale ${scale})…`);
  const [genMs, history] = await timed(() => generateHistory({ seed: 36, files: fileCount, home: path.join(dir, "home") }));
  const everyFile = history.files.flatMap((f) => f.paths);
  console.log(`  ${history.files.length} sessions in ${everyFile.length} files, ${formatMb(history.bytes)}, written in ${formatMs(genMs)}`);
  const n = `${history.files.length} files, ${formatMb(history.bytes)}`;

  // The list's baseline: 100 sessions.
  let list100: number[] = [];
  let facets100: number[] = [];
  if (rows.has("list")) {
    await seedSessions(1, 100, 20);
    collectGarbage();
    await listMs(5);
    list100 = await listMs(15);
    facets100 = await facetsMs(15);
  }

  const folders = Object.values(history.folders);
  const floor = await parseFloor(everyFile);
  const agentOf = new Map(history.files.flatMap((f) => f.paths.map((p) => [p, f.agent] as const)));
  const first = await syncChild(dbUrl, folders);
  const perAgent = new Map<string, { ms: number; files: number }>();
  for (const [file, ms] of first.fileMs) {
    const agent = agentOf.get(file) ?? "other";
    const a = perAgent.get(agent) ?? { ms: 0, files: 0 };
    perAgent.set(agent, { ms: a.ms + ms, files: a.files + 1 });
  }
  const { syncMs, idleMs } = first;
  const split = [...perAgent].map(([agent, a]) => `${agent} ${a.files} files ${formatMs(a.ms)}`).join(", ");
  for (const f of first.failed) console.log(`  failed: ${f.file}: ${JSON.stringify(f.outcome).slice(0, 300)}`);
  const counts = Object.entries(first.counts).filter(([, c]) => c > 0).map(([k, c]) => `${c} ${k}`).join(", ");
  addRow({
    section: SECTION, name: "first sync of the folder, search rows included", n, value: formatMs(syncMs),
    baseline: `read + JSON.parse of every line ${formatMs(floor)}`, ratio: syncMs / floor,
    note: `target ≤ 6×; ${counts}; ${(history.bytes / MB / (syncMs / 1000)).toFixed(1)} MB/s; by agent: ${split}; search rows after the last file ${formatMs(idleMs)}`,
  });
  addRow({
    section: SECTION, name: "peak RSS while syncing the folder", n, value: formatMb(first.peak),
    baseline: `before the sync ${formatMb(first.base)}`, ratio: first.peak / first.base,
    note: `target ≤ 600 MB; a process of its own that runs the sync alone, as \`arbor sync\` does (bench/history-sync-child.ts)`,
  });

  if (rows.has("unchanged")) await unchangedRow(folders, everyFile);
  if (rows.has("import")) await importRow(dir);
  if (rows.has("list") || rows.has("search")) await listAndSearchRows(rows, list100, facets100);
}

/** Sync with nothing changed vs stat of every file (median of 3, interleaved). */
async function unchangedRow(folders: string[], everyFile: string[]): Promise<void> {
  const again: number[] = [];
  const stats: number[] = [];
  for (let i = 0; i < 3; i++) {
    stats.push(await statFloor(everyFile));
    const [ms, s] = await timed(() => syncFolders(folders, { settleMs: 0 }));
    if (s.counts.unchanged !== s.files.length) console.log(`  unchanged sync saw changes: ${JSON.stringify(s.counts)}`);
    again.push(ms);
  }
  addRow({
    section: SECTION, name: "sync with nothing changed", n: `${everyFile.length} files`, value: formatMs(median(again)),
    baseline: `stat of every file ${formatMs(median(stats))}`, ratio: median(again) / median(stats),
    note: `target ≤ 3× and < 1 s; medians of 3 (${again.map(formatMs).join(" / ")})`,
  });
}

/** Import of a 30 MB pi session, search rows included, vs read + JSON.parse (median of 2, interleaved). */
async function importRow(dir: string): Promise<void> {
  const big = await benchSession(37_000, dir);
  const imports: number[] = [];
  const searchParts: number[] = [];
  const parses: number[] = [];
  for (let i = 0; i < 2; i++) {
    parses.push((await timed(() => readAndParse(big.file)))[0]);
    const [ms] = await timed(async () => {
      const r = await importSession({ source: big.file, asCopy: true });
      const [s] = await timed(() => buildSearchIndex(r.sessionId));
      searchParts.push(s);
    });
    imports.push(ms);
  }
  addRow({
    section: SECTION, name: "import of a 30 MB session, search rows included (what `arbor import` runs)", n: formatMb(big.bytes),
    value: formatMs(median(imports)), baseline: `read + JSON.parse ${formatMs(median(parses))}`, ratio: median(imports) / median(parses),
    note: `target ≤ 6×; runs ${imports.map(formatMs).join(" / ")}, of which search rows ${searchParts.map(formatMs).join(" / ")}`,
  });
}

/** The session list's first page at 10,000 sessions (vs `list100`, at 100) and search across them. */
async function listAndSearchRows(rows: Set<HistoryRow>, list100: number[], facets100: number[]): Promise<void> {
  const before = await historyCounts();
  await seedSessions(101, Math.max(0, 10_000 - before.sessions), 50);
  const after = await historyCounts();
  collectGarbage();
  await listMs(5);
  const list10k = await listMs(15);
  if (rows.has("list")) {
    addRow({
      section: SECTION, name: "session list, first page", n: `${after.sessions.toLocaleString("en-US")} sessions`, value: formatMs(median(list10k)),
      baseline: `at 100 sessions ${formatMs(median(list100))}`, ratio: median(list10k) / median(list100),
      note: `target ≤ 1.5×, ≤ 50 ms (in-process: the server's whole time); medians of 15`,
    });
    const facets10k = await facetsMs(15);
    addRow({
      section: SECTION, name: "session list's filter counts (agents, projects, models)", n: `${after.sessions.toLocaleString("en-US")} sessions`, value: formatMs(median(facets10k)),
      baseline: `at 100 sessions ${formatMs(median(facets100))}`, ratio: median(facets10k) / median(facets100),
      note: `sessionFacets (GET /api/sessions/facets), counted on partial indexes of live sessions; medians of 15`,
    });
  }
  if (!rows.has("search")) return;

  const { searches } = await searchBench();
  addRow({
    section: SECTION, name: "search across every session, p50 / p99", n: `${after.sessions.toLocaleString("en-US")} sessions, ${after.messages.toLocaleString("en-US")} messages`,
    value: `${formatMs(pct(searches, 50))} / ${formatMs(pct(searches, 99))}`, baseline: "—", ratio: undefined,
    note: `target ≤ 100 / 500 ms; 40 searches of one word, two words and a word in one session (first page of 50)`,
  });
}

/** The search row's 40 queries: one common word, two common words, a word of one seeded session. */
export function searchQueries(): string[] {
  const queries: string[] = [];
  for (let i = 0; i < 40; i++) {
    const w = SEED_WORDS[i % SEED_WORDS.length]!;
    queries.push(i % 3 === 0 ? w : i % 3 === 1 ? `${w} ${SEED_WORDS[(i * 5 + 3) % SEED_WORDS.length]}` : `seedword${(i * 997) % 9000}`);
  }
  return queries;
}

/** The 40 searches (after one warm-up) in-process, as the list route runs them; prints the slowest three. */
export async function searchBench(search: (query: string) => Promise<unknown> = (query) => listSessions({ query })): Promise<{ queries: string[]; searches: number[] }> {
  const queries = searchQueries();
  await search("warmup");
  const searches: number[] = [];
  for (const q of queries) searches.push((await timed(() => search(q)))[0]);
  const slowest = queries.map((q, i) => [q, searches[i]!] as const).sort((a, b) => b[1] - a[1]).slice(0, 3);
  console.log(`  slowest searches: ${slowest.map(([q, ms]) => `"${q}" ${formatMs(ms)}`).join(", ")}`);
  return { queries, searches };
}
