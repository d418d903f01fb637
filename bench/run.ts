/**
 * `npm run bench` — Arbor's benchmarks (docs/benchmarks.md). NOT tests: nothing fails on a
 * time. Each figure is printed with a baseline measured in the same run on the same data, and
 * the ratio of the two, which is what stays comparable on a noisy machine.
 *
 *   npm run bench                       engine, import, open, append, chat (~80 s)
 *   npm run bench -- --canvas           + first render of the tree canvas in headless Chromium
 *                                       (builds the app in <tmpdir>/arbor-bench-app when the sources
 *                                       changed, see lib/app-build.ts; --no-build uses it as it is)
 *   npm run bench -- --big              + peak memory of importing a 100 MB synthetic file
 *   npm run bench -- --live             + an appended line, from the file's write to the open
 *                                       page's delta (bench/live.ts; also with --history)
 *   npm run bench -- --only engine,chat only these sections
 *   npm run bench -- --only usage       the Usage page and the list over 10,000 sessions' ledgers
 *   npm run bench -- --md FILE          also write the result table (markdown) to FILE
 *   npm run bench -- --history          only the history benchmark (bench/history.ts): 2,000 files,
 *                                       ~1 GB; --history-scale 0.1 (or ARBOR_BENCH_HISTORY_SCALE) for 200
 *                                       files; --history-rows unchanged (or import,list,search,live,page):
 *                                       only those rows after the first sync; live and page are the
 *                                       live and canvas sections' rows of the targets
 *   npx tsx --conditions=react-server bench/history-search.ts [--history-scale X] [--rebuild]
 *                                       its search row alone, on a database built once and kept
 *   npx tsx --conditions=react-server bench/chat-profile.ts [N] [compacted]
 *                                       a CPU profile of chat turns on the N-entry session (a tool)
 *
 * Data: seeded synthetic sessions (bench/lib/sessions.ts) of 1k, 10k and 100k entries, written
 * to a temp folder. Database: a fresh `arbor_bench_<ts>` (bench/lib/database.ts), dropped at the end.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os, { tmpdir } from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const args = process.argv.slice(2);
const flag = (name: string) => args.includes(`--${name}`);
const value = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const only = value("only")?.split(",");
const OPT_IN: Record<string, string[]> = { canvas: ["canvas"], big: ["big"], live: ["live", "history"] };
const wants = (section: string) => (only ? only.includes(section) : OPT_IN[section] ? OPT_IN[section].some(flag) : true);

/** scripts/ensure-browser.mjs, which exits non-zero (saying why) when no browser can be had. */
function ensureBrowser(): void {
  const run = spawnSync(process.execPath, [fileURLToPath(new URL("../scripts/ensure-browser.mjs", import.meta.url))], { stdio: "inherit" });
  if (run.status !== 0) throw new Error("bench: --canvas needs Chromium (see the message above)");
}

async function main(): Promise<void> {
  const started = performance.now();
  const { benchSession } = await import("./lib/sessions");
  const { markdownTable } = await import("./lib/stats");
  const dir = await mkdtemp(path.join(tmpdir(), "arbor-bench-"));
  const cpus = os.cpus();
  console.log(
    `arbor bench — ${new Date().toISOString()} — ${os.availableParallelism()} cores (${cpus[0]?.model ?? "?"}), ` +
      `${(os.totalmem() / 2 ** 30).toFixed(0)} GB, node ${process.version}`,
  );
  // The canvas section needs a browser: get it first (as `npm run test:e2e` does, installing
  // Debian's Chromium when root), not after minutes of other sections.
  if (wants("canvas")) ensureBrowser();
  if (flag("history")) return historyOnly(dir);
  const sizes = [1000, 10_000, 100_000];
  const sessions = [];
  // The generated sessions serve every section but live and usage, which write their own data.
  const needsSessions = ["engine", "import", "open", "append", "chat", "canvas", "big"].some(wants);
  if (needsSessions) for (const n of sizes) sessions.push(await benchSession(n, dir));

  let db: Awaited<ReturnType<typeof import("./lib/database").openBenchDatabase>> | undefined;
  try {
    if (wants("engine")) await (await import("./engine")).engineBench(sessions);
    const needsDb = ["import", "open", "append", "chat", "canvas", "big", "live", "usage"].some(wants);
    if (needsDb) {
      const { openBenchDatabase, statementCounter } = await import("./lib/database");
      statementCounter.install();
      db = await openBenchDatabase();
      console.log(`\ndatabase ${db.name} (pg_stat_statements: ${db.statementStats ? "yes" : "no"})`);
      if (wants("usage")) await (await import("./usage")).usageBench(db);
      const { importBench, importSessions } = await import("./import");
      const imported = needsSessions ? await importSessions(db, sessions, dir, { big: ["import", "open", "append", "canvas"].some(wants) }) : new Map();
      if (wants("import")) await importBench(db, sessions, imported);
      if (wants("big")) await (await import("./import")).bigImportBench(db, dir);
      const open = await import("./open");
      if (wants("open")) await open.openBench(imported, db.url);
      if (wants("append")) await open.appendBench(imported);
      if (wants("chat")) await (await import("./chat")).chatBench(dir, imported);
      if (wants("canvas")) await (await import("./canvas")).canvasBench(db, dir, imported, { build: !flag("no-build") });
    }
    if (wants("live")) {
      if (!db) {
        const { openBenchDatabase } = await import("./lib/database");
        db = await openBenchDatabase();
      }
      await (await import("./live")).liveBench();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
    await db?.close().catch((error: unknown) => console.error(`bench: dropping the database failed: ${String(error)}`));
  }
  const table = markdownTable();
  console.log(`\n${table}\n\ntotal ${((performance.now() - started) / 1000).toFixed(0)} s`);
  const md = value("md");
  if (md) await writeFile(md, `${table}\n`);
}

/** `--history`: the history benchmark alone (bench/history.ts), on a database of its own. */
async function historyOnly(dir: string): Promise<void> {
  const { openBenchDatabase } = await import("./lib/database");
  const { markdownTable } = await import("./lib/stats");
  const db = await openBenchDatabase();
  try {
    const history = await import("./history");
    await history.historyBench(dir, args, db.url);
    const rows = history.historyRows(args);
    if (rows.has("live")) await (await import("./live")).liveBench();
    if (rows.has("page")) {
      // The 100k-entry session's first tree node against the 10-entry session's (canvas.ts).
      ensureBrowser();
      const { benchSession } = await import("./lib/sessions");
      const imported = await (await import("./import")).importSessions(db, [await benchSession(100_000, dir)], dir, { big: true });
      await (await import("./canvas")).canvasBench(db, dir, imported, { build: !flag("no-build"), hugeOnly: true });
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
    await db.close().catch((error: unknown) => console.error(`bench: dropping the database failed: ${String(error)}`));
  }
  const table = markdownTable();
  console.log(`\n${table}`);
  const md = value("md");
  if (md) await writeFile(md, `${table}\n`);
}

await main();
// Prisma's pool and the fake model server's keep-alive sockets must not keep the process up.
process.exit(0);
