import "server-only";
/**
 * Who watches the synced folders (lib/sync/app-sync.ts): one app process per database, chosen by
 * a PostgreSQL session-level advisory lock, so N app processes run one watcher, not N.
 *
 * The lock is taken on a connection that lives as long as the process (default: the run
 * registry's, channel.ts): when the holder dies its socket closes, the server drops the lock, and
 * the next process that tries takes over. Key: (WATCH_SPACE, 0), two-int form beside the run
 * slots' spaces (locks.ts) so it never meets them or other advisory-lock users.
 */
import type pg from "pg";
import { runChannel, runQuery } from "./channel";

/** "ARB" + 0x80: apart from the run slots' spaces (locks.ts) and the file locks (file-lock.ts). */
const WATCH_SPACE = 0x41524280;

/** A connection to take the watch lock on. */
export type LockClient = () => Promise<pg.Client>;

/** Tries to become the watcher; the client holding the lock, or null when another process holds it. */
export async function tryTakeWatch(client: LockClient = runChannel): Promise<pg.Client | null> {
  const c = await client();
  const rows = await runQuery<{ locked: boolean }>(c, "SELECT pg_try_advisory_lock($1::int, 0) AS locked", [WATCH_SPACE]);
  return rows[0]?.locked ? c : null;
}

/** Whether `c` still holds the watch lock (false once its connection was lost: the server dropped it). */
export async function stillWatching(c: pg.Client): Promise<boolean> {
  try {
    const rows = await runQuery<{ held: boolean }>(
      c,
      `SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted AND pid = pg_backend_pid()
         AND classid::bigint = $1::bigint AND objid::bigint = 0 AND objsubid = 2) AS held`,
      [WATCH_SPACE],
    );
    return rows[0]?.held === true;
  } catch {
    return false;
  }
}

/** Gives the lock back (a stopping watcher), so another process may take it at once. */
export async function releaseWatch(c: pg.Client): Promise<void> {
  await runQuery(c, "SELECT pg_advisory_unlock($1::int, 0)", [WATCH_SPACE]).catch(() => undefined);
}
