import "server-only";
/**
 * One sync of one file at a time, in this process and across app processes on the database:
 * the app's own watcher (lib/sync/app-sync.ts) and a sync the user started (the Sync page, the
 * first start) may reach the same file together, and two imports of one new file would make
 * twins. In this process the calls for a path queue behind each other; across processes a
 * session-level advisory lock on (FILE_SPACE, hashtext(path)) on the run registry's connection
 * is taken (polled, never a blocking wait, which would stall that shared connection) and given
 * back after. A lost registry connection drops the lock on the server: the sync goes on (its
 * writes are transactions; the tracked-file row decides the next sync).
 * Without a database configured there is no other process: the in-process queue is enough.
 */
import { runChannel, runDatabaseConfigured, runQuery } from "./channel";

const FILE_SPACE = 0x41524281;
const POLL_MS = 100;

const KEY = Symbol.for("arbor.runs.fileLocks");
type Global = typeof globalThis & { [KEY]?: Map<string, Promise<unknown>> };

function queues(): Map<string, Promise<unknown>> {
  const g = globalThis as Global;
  g[KEY] ??= new Map();
  return g[KEY];
}

async function lockAcrossProcesses(file: string, signal?: AbortSignal): Promise<(() => Promise<void>) | null> {
  if (!runDatabaseConfigured()) return null;
  for (;;) {
    signal?.throwIfAborted();
    const c = await runChannel();
    const rows = await runQuery<{ locked: boolean }>(c, "SELECT pg_try_advisory_lock($1::int, hashtext($2)) AS locked", [FILE_SPACE, file]);
    if (rows[0]?.locked) return () => runQuery(c, "SELECT pg_advisory_unlock($1::int, hashtext($2))", [FILE_SPACE, file]).then(() => undefined, () => undefined);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

/** Runs `fn` while this process alone, of all on the database, syncs `file`. */
export function withFileLock<T>(file: string, fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  const all = queues();
  const before = all.get(file) ?? Promise.resolve();
  const mine = before.then(async () => {
    const unlock = await lockAcrossProcesses(file, signal);
    try {
      return await fn();
    } finally {
      await unlock?.();
    }
  });
  const tail = mine.catch(() => undefined);
  all.set(file, tail);
  void tail.then(() => {
    if (all.get(file) === tail) all.delete(file);
  });
  return mine;
}
