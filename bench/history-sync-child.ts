/**
 * Child process of the history benchmark (bench/history.ts): the first sync of the folders in a
 * process that holds nothing else, as `arbor sync` runs it. The parent has just written the
 * ~1 GB folder and read and parsed every line of it (the floor): its own heap then started the
 * sync anywhere between 300 and 500 MB, so its peak RSS measured the parent's garbage as much as
 * the sync (H4, docs/benchmarks-history.md).
 *
 *   tsx --conditions=react-server bench/history-sync-child.ts <database url> <folders as JSON>
 *
 * Prints ONE JSON line (the last of stdout): the sync's time (syncFolders, then the background
 * search builds awaited), the time of those builds after the last file, RSS before and at its
 * peak (sampled every 25 ms), the outcome counts, the first failures, and each file's share of
 * the time (from the previous file's event to its own) for the parent's split by agent.
 */
import { performance } from "node:perf_hooks";

const [url, foldersJson] = process.argv.slice(2);
if (!url || !foldersJson) throw new Error("usage: history-sync-child.ts <database url> <folders as JSON>");
const folders = JSON.parse(foldersJson) as string[];

const { useDatabase, disconnectDb, searchIndexIdle } = await import("@/lib/db");
const { syncFolders } = await import("@/lib/sync/sync-folders");
await useDatabase(url);

const base = process.memoryUsage().rss;
let peak = base;
const timer = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
}, 25);
const fileMs: [string, number][] = [];
let last = performance.now();
const start = last;
const summary = await syncFolders(folders, {
  settleMs: 0,
  onEvent: (e) => {
    if (e.type !== "file") return;
    const now = performance.now();
    fileMs.push([e.file, now - last]);
    last = now;
  },
});
const synced = performance.now();
await searchIndexIdle();
const end = performance.now();
peak = Math.max(peak, process.memoryUsage().rss);
clearInterval(timer);
const failed = summary.files.filter((f) => f.outcome.kind === "failed").slice(0, 5).map((f) => ({ file: f.file, outcome: f.outcome }));
await disconnectDb();
// Exits once the line is written: the pipe takes a large line in several writes.
process.stdout.write(`${JSON.stringify({ syncMs: end - start, idleMs: end - synced, base, peak, counts: summary.counts, failed, fileMs })}\n`, () => process.exit(0));
