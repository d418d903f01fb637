/**
 * The history benchmark's search row alone, on a database built once and kept:
 *
 *   npx tsx --conditions=react-server bench/history-search.ts [--history-scale X] [--rebuild]
 *
 * The first run writes the same data as `npm run bench -- --history` before its search row
 * (bench/history.ts: the seeded home folder synced with its full-text rows, 100 + the rest up to
 * 10,000 sessions seeded by SQL, two copies of the 30 MB pi session imported and indexed) into
 * `arbor_history_search_<scale>` on the bench's embedded server (`.data/postgres-bench`), and
 * keeps it; later runs only run the 40 searches (minutes of sync saved each time). `--rebuild`
 * drops and writes it again. Prints p50 / p99 and the slowest three searches.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { buildSearchIndex, importSession, searchIndexIdle, useDatabase, disconnectDb } from "@/lib/db";
import { syncFolders } from "@/lib/sync/sync-folders";
import { generateHistory } from "@/test/generators/history";
import { historyScale, pct, searchBench } from "./history";
import { admin } from "./lib/database";
import { historyCounts, seedSessions } from "./lib/history-seed";
import { benchSession } from "./lib/sessions";
import { formatMs } from "./lib/stats";

const args = process.argv.slice(2);

/** What bench/history.ts writes before its search row, in the same order. */
async function build(scale: number): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), "arbor-bench-search-"));
  try {
    const files = Math.max(20, Math.round(2000 * scale));
    console.log(`writing ${files} session files…`);
    const history = await generateHistory({ seed: 36, files, home: path.join(dir, "home") });
    await seedSessions(1, 100, 20);
    console.log("syncing…");
    await syncFolders(Object.values(history.folders), { settleMs: 0 });
    await searchIndexIdle();
    const big = await benchSession(37_000, dir);
    for (let i = 0; i < 2; i++) await buildSearchIndex((await importSession({ source: big.file, asCopy: true })).sessionId);
    const before = await historyCounts();
    await seedSessions(101, Math.max(0, 10_000 - before.sessions), 50);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const scale = historyScale(args);
  const { startEmbeddedPostgres, prepareAppDatabase } = await import("@/lib/postgres");
  const server = await startEmbeddedPostgres(path.join(process.cwd(), ".data", "postgres-bench"), {
    extraFlags: ["-c", "shared_preload_libraries=pg_stat_statements"],
  });
  const name = `arbor_history_search_${String(scale).replace(".", "_")}`;
  try {
    if (args.includes("--rebuild")) await admin(server.adminUrl, (c) => c.query(`drop database if exists ${pg.escapeIdentifier(name)} with (force)`));
    const { url } = await prepareAppDatabase(server, name);
    await useDatabase(url);
    let counts = await historyCounts();
    if (counts.sessions < 10_000) {
      await build(scale);
      counts = await historyCounts();
    }
    console.log(`${name}: ${counts.sessions.toLocaleString("en-US")} sessions, ${counts.messages.toLocaleString("en-US")} messages`);
    const { searches } = await searchBench();
    console.log(`search p50 / p99: ${formatMs(pct(searches, 50))} / ${formatMs(pct(searches, 99))}`);
  } finally {
    await disconnectDb();
    await server.stop();
  }
}

await main();
process.exit(0);
