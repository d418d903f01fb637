import "server-only";
/**
 * The connections a cold read of the read model (queries.ts readAllAt) runs its parts on: a
 * small `pg` pool of its own, not Prisma's.
 *
 * Why not Prisma: measured on a 100k-entry session (heap after a full GC, the read model's
 * memory bound counts it), parts read at once through Prisma left +46 MB (2 parts) / +68 MB
 * (4 parts) more than one read: a pooled connection keeps its last result reachable until its
 * next query. Here the rows are released once parsed (`partQuery`), and parallel parts cost the
 * same heap as one read (94 MB either way).
 *
 * Contract: `partQuery` runs one read-only statement on a pooled connection of the current
 * database (`databaseUrl()`; a new URL — tests switching databases — ends the old pool). Idle
 * connections close after IDLE_MS and never keep a process alive; a connection that fails
 * while idle is dropped, not thrown. Driver errors come back as toDatabaseError's.
 */
import pg from "pg";
import { databaseUrl } from "../client";
import { toDatabaseError } from "../errors";

const IDLE_MS = 10_000;

let current: { url: string; pool: pg.Pool } | undefined;

function pool(max: number): pg.Pool {
  const url = databaseUrl();
  if (current?.url === url) return current.pool;
  void current?.pool.end().catch(() => undefined);
  const created = new pg.Pool({ connectionString: url, max, idleTimeoutMillis: IDLE_MS, allowExitOnIdle: true });
  // A pooled connection the server closes while idle (restart, a dropped test database).
  created.on("error", () => undefined);
  current = { url, pool: created };
  return created;
}

/**
 * `consume`'s value for the rows of `text` with `params`, run on one of at most `max` pooled
 * connections. The rows array is emptied afterwards: `pg` keeps a connection's last result
 * reachable until its next query, which would keep every row's text alive in an idle pool.
 */
export async function partQuery<T, R>(text: string, params: readonly unknown[], max: number, consume: (rows: T[]) => R): Promise<R> {
  let result: pg.QueryResult;
  try {
    result = await pool(max).query(text, [...params]);
  } catch (error) {
    throw toDatabaseError(error, { fromDriver: true });
  }
  try {
    return consume(result.rows as T[]);
  } finally {
    result.rows.length = 0;
  }
}
