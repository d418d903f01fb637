import "server-only";
/**
 * The connections of withBulkTransaction (sql.ts), kept for the next bulk write.
 *
 * Why: a new connection is a new server process that authenticates and loads the catalog of
 * every table it touches again (sessions, the entries' partitions, the ledger, the full-text
 * rows): for a sync of many small files, a cost per file beside the file's own work
 * (bench/sync-profile.ts; docs/benchmarks-history.md, SYNC2).
 *
 * Contract:
 * - `takeBulkConnection()` gives a connection to `databaseUrl()` with no transaction open: a
 *   kept one when there is one (at most MAX_KEPT, each closed after KEPT_MS unused), else a
 *   new one. Kept connections never keep the process alive.
 * - `give(healthy)`: a connection whose transaction committed is kept (`healthy`); any other is
 *   closed (a failed COPY, a lost server).
 * - A database switch (useDatabase: tests, the bench) or `closeBulkConnections()` closes them.
 * - A kept connection that the server dropped meanwhile fails its first statement: `fresh`
 *   tells the caller whether to try again on a new one (only a kept one is worth it).
 */
import pg from "pg";
import { databaseUrl } from "../client";

/** Idle connections kept (a sync runs two imports at once). */
const MAX_KEPT = 2;
/** Bulk writes at once (imports, forks); more wait for one to end. */
const MAX_OPEN = 32;
/** A kept connection unused this long is closed. */
const KEPT_MS = 10_000;

export interface BulkConnection {
  client: pg.Client;
  /** True for a new connection, false for a kept one. */
  fresh: boolean;
  give(healthy: boolean): void;
}

const kept = globalThis as unknown as { arborBulkPool?: { url: string; pool: pg.Pool } };

function poolFor(url: string): pg.Pool {
  if (kept.arborBulkPool?.url === url) return kept.arborBulkPool.pool;
  void closeBulkConnections();
  const pool = new pg.Pool({ connectionString: url, max: MAX_OPEN, idleTimeoutMillis: KEPT_MS, allowExitOnIdle: true });
  // An idle connection the server ends (a restart, a dropped test database) is only removed.
  pool.on("error", () => undefined);
  kept.arborBulkPool = { url, pool };
  return pool;
}

export async function takeBulkConnection(): Promise<BulkConnection> {
  const pool = poolFor(databaseUrl());
  const before = pool.idleCount;
  const client = await pool.connect();
  // The pool listens only while a connection is idle: a dropped connection fails the pending
  // query, which is what reports it; without a listener the 'error' event would end the process.
  if (client.listenerCount("error") === 0) client.on("error", () => undefined);
  let given = false;
  return {
    client,
    fresh: before === 0,
    give(healthy: boolean) {
      if (given) return;
      given = true;
      // More idle connections than MAX_KEPT: this one is closed rather than kept.
      client.release(!healthy || pool.idleCount >= MAX_KEPT);
    },
  };
}

/** Closes the kept connections (and forgets the pool). */
export async function closeBulkConnections(): Promise<void> {
  const old = kept.arborBulkPool;
  kept.arborBulkPool = undefined;
  await old?.pool.end().catch(() => undefined);
}
