/**
 * `tsx --conditions=react-server bench/sync-unchanged-ab.ts OLD_SYNC_DIR [scale] [rounds]`: a sync
 * with nothing changed, on two versions of lib/sync at once (OLD_SYNC_DIR holds the other
 * version's lib/sync files, e.g. from `git show`), beside `stat` of every file. The history
 * generator's home folder (scale 0.1: 200 sessions) is synced once, then every round times the
 * stat floor, A and B, the order alternating, so load from other processes hits both alike.
 * A tool for comparing a change, not a bench. OLD_SYNC_DIR must lie inside the project (its
 * `@/` imports resolve there), e.g. the ignored `.data/`:
 *   mkdir -p .data/ab-old && for f in $(git ls-files lib/sync | grep -v test.ts); do
 *     git show BASE:$f > .data/ab-old/$(basename $f); done
 */
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { syncFolders } from "@/lib/sync/sync-folders";
import { generateHistory } from "@/test/generators/history";
import { openBenchDatabase } from "./lib/database";
import { formatMs, median } from "./lib/stats";

const oldDir = path.resolve(process.argv[2]!);
const scale = Number(process.argv[3] ?? 0.1);
const rounds = Number(process.argv[4] ?? 5);
const dir = await mkdtemp(path.join(tmpdir(), "arbor-sync-ab-"));
const db = await openBenchDatabase();
type Sync = typeof syncFolders;
const old = (await import(path.join(oldDir, "sync-folders.ts"))) as { syncFolders: Sync };

try {
  const history = await generateHistory({ seed: 36, files: Math.max(20, Math.round(2000 * scale)), home: path.join(dir, "home") });
  const everyFile = history.files.flatMap((f) => f.paths);
  const folders = Object.values(history.folders);
  console.log(`${history.files.length} sessions, ${everyFile.length} files`);
  const first = await syncFolders(folders, { settleMs: 0 });
  console.log(`first sync: ${JSON.stringify(first.counts)}`);
  const statFloor = async () => {
    const t = performance.now();
    for (const file of everyFile) await stat(file);
    return performance.now() - t;
  };
  const timed = async (sync: Sync) => {
    const t = performance.now();
    const s = await sync(folders, { settleMs: 0 });
    const ms = performance.now() - t;
    if (s.counts.unchanged !== s.files.length) console.log(`  saw changes: ${JSON.stringify(s.counts)}`);
    return ms;
  };
  const runs = { stat: [] as number[], A: [] as number[], B: [] as number[] };
  for (let i = 0; i < rounds; i++) {
    runs.stat.push(await statFloor());
    for (const which of i % 2 ? (["B", "A"] as const) : (["A", "B"] as const)) runs[which].push(await timed(which === "A" ? old.syncFolders : syncFolders));
    console.log(`round ${i + 1}: stat ${formatMs(runs.stat.at(-1)!)}, A (old) ${formatMs(runs.A.at(-1)!)}, B (new) ${formatMs(runs.B.at(-1)!)}`);
  }
  const s = median(runs.stat);
  console.log(`medians: stat ${formatMs(s)}; A ${formatMs(median(runs.A))} (${(median(runs.A) / s).toFixed(2)}×); B ${formatMs(median(runs.B))} (${(median(runs.B) / s).toFixed(2)}×)`);
} finally {
  await rm(dir, { recursive: true, force: true });
  await db.close();
}
process.exit(0);
