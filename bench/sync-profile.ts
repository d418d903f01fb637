/**
 * Where a first sync's time goes (not part of `npm run bench`): the first `syncFolders` of the
 * generated history folder (bench/sync-ab.ts's, `--files` sessions, default 200), with this
 * process's and the embedded server's CPU (bench/lib/cpu-split.ts), the statements this process
 * sent (by first keyword, per file synced), and the server's statements by total time
 * (pg_stat_statements). Embedded server only (`.data/postgres-bench`).
 *
 *   tsx --conditions=react-server bench/sync-profile.ts [--files 200] [--dir /tmp/history-36] [--top 15] [--cpu-prof FILE]
 *
 * `--cpu-prof FILE` writes a V8 CPU profile of the sync alone (not the folder's generation) to FILE.
 */
import { readFile, writeFile } from "node:fs/promises";
import { Session } from "node:inspector/promises";
import path from "node:path";
import pg from "pg";
import { generateHistory } from "@/test/generators/history";
import { argOf, historyFolderArgs } from "./lib/args";

const { files, dir } = historyFolderArgs();
const top = Number(argOf("top") ?? 15);
const profileFile = argOf("cpu-prof");

const { openBenchDatabase, statementCounter } = await import("./lib/database");
const { measureCpuSplit } = await import("./lib/cpu-split");
const { syncFolders } = await import("@/lib/sync/sync-folders");
const history = await generateHistory({ seed: 36, files, home: path.join(dir, "home") });
const db = await openBenchDatabase();
const stats = new pg.Client({ connectionString: db.statsUrl });
await stats.connect();
try {
  const postmaster = Number((await readFile(path.join(process.cwd(), ".data", "postgres-bench", "postmaster.pid"), "utf8")).split("\n")[0]);
  statementCounter.install();
  if (db.statementStats) await stats.query("SELECT pg_stat_statements_reset()");
  let synced = 0;
  const inspector = profileFile ? new Session() : undefined;
  if (inspector) {
    inspector.connect();
    await inspector.post("Profiler.enable");
    await inspector.post("Profiler.start");
  }
  const split = await measureCpuSplit(postmaster, async () => {
    const summary = await syncFolders(Object.values(history.folders), { settleMs: 0 });
    synced = summary.files.length;
  });
  if (inspector && profileFile) {
    const { profile } = await inspector.post("Profiler.stop");
    await writeFile(profileFile, JSON.stringify(profile));
    inspector.disconnect();
  }
  const pct = (x: number) => `${Math.round(x * 100)} %`;
  console.log(
    `first sync ${(split.wallMs / 1000).toFixed(1)} s, ${synced} files: Node CPU ${(split.nodeMs / 1000).toFixed(1)} s, server CPU ${(split.serverMs / 1000).toFixed(1)} s; ` +
      `both busy ${pct(split.both)}, only Node ${pct(split.onlyNode)}, only the server ${pct(split.onlyServer)}`,
  );
  const kinds = [...statementCounter.kinds].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(", ");
  console.log(`statements sent: ${statementCounter.total} (${(statementCounter.total / synced).toFixed(1)} a file): ${kinds}`);
  if (db.statementStats) {
    const r = await stats.query<{ ms: number; calls: string; query: string }>(
      `SELECT total_exec_time::float8 AS ms, calls::text, left(regexp_replace(query, '\\s+', ' ', 'g'), 110) AS query
       FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
       WHERE d.datname = current_database() AND query NOT ILIKE '%pg_stat_statements%' ORDER BY total_exec_time DESC LIMIT ${top}`,
    );
    for (const row of r.rows) console.log(`${row.ms.toFixed(0).padStart(8)} ms ${row.calls.padStart(6)}× ${row.query}`);
  }
} finally {
  await stats.end();
  await db.close();
}
process.exit(0);
