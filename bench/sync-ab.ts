/**
 * The first sync of a generated history folder (test/generators/history.ts, seed 36, `--files`
 * sessions, default 200: bench/history.ts at scale 0.1), search rows included (syncFolders, then
 * the background builds awaited), beside read + JSON.parse of every line, in a fresh bench
 * database. Not part of `npm run bench`: run it in two checkouts, alternately, for an A/B.
 *
 *   tsx --conditions=react-server bench/sync-ab.ts [--files 200] [--dir /tmp/history-36]
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { generateHistory } from "@/test/generators/history";
import { historyFolderArgs } from "./lib/args";

const { files, dir } = historyFolderArgs();

const { openBenchDatabase } = await import("./lib/database");
const { searchIndexIdle } = await import("@/lib/db");
const { syncFolders } = await import("@/lib/sync/sync-folders");
const home = path.join(dir, "home");
const fresh = !existsSync(home);
const history = await generateHistory({ seed: 36, files, home });
const every = history.files.flatMap((f) => f.paths);
let t = performance.now();
for (const file of every) {
  const text = await readFile(file, "utf8");
  if (!file.endsWith(".jsonl")) JSON.parse(text);
  else for (const line of text.split("\n")) if (line !== "") JSON.parse(line);
}
const floor = performance.now() - t;
const db = await openBenchDatabase();
try {
  t = performance.now();
  const summary = await syncFolders(Object.values(history.folders), { settleMs: 0 });
  const synced = performance.now() - t;
  await searchIndexIdle();
  const ms = performance.now() - t;
  const counts = Object.entries(summary.counts).filter(([, c]) => c > 0).map(([k, c]) => `${c} ${k}`).join(", ");
  console.log(`first sync ${(ms / 1000).toFixed(1)} s (files ${(synced / 1000).toFixed(1)} s, search rows after ${(ms - synced).toFixed(0)} ms) vs read + parse ${floor.toFixed(0)} ms: ${(ms / floor).toFixed(2)}×; ${counts}${fresh ? " (folder written now)" : ""}`);
} finally {
  await db.close();
}
process.exit(0);
