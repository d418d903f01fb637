/**
 * Each session's entries live in a table of their own: `entries` is partitioned by LIST
 * (session_id) (prisma/migrations/20270115000000_entries_by_session, which says why).
 *
 * Contract:
 * - Inserting a session row creates its partition (a trigger), attached to `entries` at once:
 *   small writers (createSession, commits) need nothing from here.
 * - A bulk writer (import, fork) calls `insertDetached` around its session insert: the
 *   partition is then created standalone (no index, not visible through `entries`), the writer
 *   fills it by name (`partitionOf`), and `attachPartition` makes it part of `entries` before
 *   the transaction commits. Attaching builds the table's three indexes in bulk, which also
 *   checks that ids and seqs are unique, and takes SHARE UPDATE EXCLUSIVE on `entries` until
 *   the transaction ends: other attaches wait, reads and writes of entries do not.
 * - No ANALYZE after a bulk write (there was one of all `entries`, 0.1-0.3 s of a 100k import):
 *   attaching records the partition's row count (its index builds count the rows), and the
 *   plans of a session's reads need no more than that on a table that holds that session alone
 *   (the path read's recursion keeps its index scans without column statistics:
 *   entry-partitions.test.ts). Autovacuum samples the new table soon after anyway.
 * - A rollback takes the partition with it (PostgreSQL's DDL is transactional); deleting a
 *   session row drops it.
 */
import type { Sql } from "./sql";

/** The partition of a session's entries, as a quoted identifier for SQL text. */
export async function partitionOf(sql: Sql, sessionId: string): Promise<string> {
  const [row] = await sql.query<{ name: string }>("SELECT quote_ident(arbor_entries_partition($1)) AS name", [sessionId]);
  return row!.name;
}

/**
 * Runs `insert` (the session row's insert) with the new partition left standalone. (A failed
 * insert fails the transaction, whose setting then ends with it.)
 */
export async function insertDetached<T>(sql: Sql, insert: () => Promise<T>): Promise<T> {
  await sql.query("SELECT set_config('arbor.entries_partition', 'detached', true)");
  const result = await insert();
  await sql.query("SELECT set_config('arbor.entries_partition', '', true)");
  return result;
}

/** Makes the session's standalone partition part of `entries` (see the header). */
export async function attachPartition(sql: Sql, sessionId: string): Promise<void> {
  await sql.query("SELECT arbor_attach_entries_partition($1)", [sessionId]);
}
