import "server-only";
/**
 * Shared SQL of the session store: transactions, batched entry inserts and label columns.
 * Internal to lib/db (commit, import and fork use it); callers hold a transaction, seen
 * through the small `Sql` interface so the same statements run on a Prisma transaction
 * (small writes) and on a dedicated connection (bulk writes, see withBulkTransaction).
 *
 * Entry rows are inserted as ONE statement per batch: the batch travels as a single JSON
 * parameter expanded by `json_to_recordset`, so a batch of 1000 entries is one round trip
 * and one parse on the server, and no statement ever has thousands of bind parameters.
 */
import type { Writable } from "node:stream";
import type { Prisma } from "@/generated/prisma/client";
import type { LabelEntry, SessionEntry } from "@/lib/session/types";
import { getDb } from "../client";
import { takeBulkConnection } from "./bulk-connections";
import type { EntryRow } from "./entry-columns";
import { pgErrorOf, toDatabaseError } from "../errors";
import { copyFromStdin } from "../copy-stream";
import { toPgJson } from "../pg-json";

export type Tx = Prisma.TransactionClient;

/** A connection inside a transaction: `$1`-style SQL text and parameters, rows back. */
export interface Sql {
  query<T>(text: string, params?: readonly unknown[]): Promise<T[]>;
}

/** The Sql of withBulkTransaction, which can also stream a `COPY … FROM STDIN` (lib/db/import/entry-load.ts). */
export interface BulkSql extends Sql {
  /** Starts `text` (a COPY … FROM STDIN); write the data, then end the stream. */
  copyFrom(text: string): Writable;
}

/** The Sql of a Prisma interactive transaction. */
export function prismaSql(tx: Tx): Sql {
  return { query: <T>(text: string, params: readonly unknown[] = []) => tx.$queryRawUnsafe<T[]>(text, ...params) };
}

/** Runs `fn` in one Prisma transaction on one connection; any throw rolls everything back. */
export function withTransaction<T>(fn: (tx: Tx) => Promise<T>, opts: { timeoutMs?: number } = {}): Promise<T> {
  return getDb().$transaction(fn, { maxWait: 15_000, timeout: opts.timeoutMs ?? 20_000 });
}

/**
 * Runs `fn` in one transaction on a dedicated connection, for bulk writes (import, fork): one
 * kept from an earlier bulk write that committed, else a new one (bulk-connections.ts).
 * Why not Prisma: Prisma 7 keeps the arguments of its last 100 queries in an internal debug
 * ring buffer, even with logging off, so 100 batch payloads of ~1 MB each would stay in
 * memory; this connection keeps nothing. No timeout: an import may stream for minutes.
 */
export async function withBulkTransaction<T>(fn: (sql: BulkSql) => Promise<T>): Promise<T> {
  // Only this client's own failures are mapped: `fn` also reads other streams (an upload).
  const driver = <R>(p: Promise<R>) => p.catch((error: unknown) => Promise.reject(toDatabaseError(error, { fromDriver: true })));
  let connection = await driver(takeBulkConnection());
  try {
    await driver(connection.client.query("BEGIN"));
  } catch (error) {
    connection.give(false);
    // A kept connection the server dropped meanwhile: once more on a new one.
    if (connection.fresh) throw error;
    connection = await driver(takeBulkConnection());
    await driver(connection.client.query("BEGIN")).catch((again: unknown) => {
      connection.give(false);
      throw again;
    });
  }
  const { client } = connection;
  const sql: BulkSql = {
    query: async <T>(text: string, params: readonly unknown[] = []) => (await driver(client.query(text, [...params]))).rows as T[],
    // The stream's own errors are mapped by its user (EntryLoader), like `driver` does here.
    copyFrom: (text: string) => client.query(copyFromStdin(text)),
  };
  try {
    const result = await fn(sql);
    await driver(client.query("COMMIT"));
    connection.give(true);
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    // Closed, not kept: after an aborted COPY or a lost server its state is not worth trusting.
    connection.give(false);
    throw error;
  }
}

/** True for a unique violation of `constraint` (or of any constraint when omitted). */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const pg = pgErrorOf(error);
  return pg.code === "23505" && (constraint === undefined || pg.constraint === constraint);
}

/**
 * True for a duplicate entry id: a unique violation of the primary key of `entries`, which
 * PostgreSQL names after the partition that holds the row (`entries_p07_pkey`: one of the
 * sixteen, migration 20270125000000_entries_hashed).
 */
export function isEntryIdViolation(error: unknown): boolean {
  return isUniqueViolation(error) && /^entries(_p\d+)?_pkey$/.test(pgErrorOf(error).constraint ?? "");
}

/**
 * Inserts `rows` with seq = firstSeq, firstSeq + 1, … into `entries` (the caller has checked
 * the ids are distinct: writeWholeSession; the primary key checks them again).
 */
export async function insertEntryRows(
  sql: Sql,
  input: { sessionId: string; rows: readonly EntryRow[]; firstSeq: number },
): Promise<void> {
  if (input.rows.length === 0) return;
  const payload = input.rows.map((r, i) => ({
    id: r.id,
    parent_id: r.parentId,
    type: r.type,
    ts: r.timestamp,
    seq: input.firstSeq + i,
    data: r.data,
    role: r.role,
    tokens: r.tokens,
    text: r.text,
  }));
  await sql.query(
    `INSERT INTO entries (session_id, id, parent_id, type, "timestamp", seq, data, role, tokens, text)
     SELECT $1, x.id, x.parent_id, x.type, x.ts, x.seq, x.data, x.role, x.tokens, x.text
     FROM json_to_recordset($2::json)
       AS x(id text, parent_id text, type text, ts text, seq int, data json, role text, tokens int, text text)`,
    [input.sessionId, toPgJson(payload)],
  );
}

/**
 * The label changes made by `entries`, in order, last one winning: targetId → label, or null
 * when cleared (`undefined` or "", session-engine.md §1.6).
 */
export function labelChanges(entries: Iterable<SessionEntry>, into = new Map<string, string | null>()): Map<string, string | null> {
  for (const entry of entries) {
    if (entry.type !== "label") continue;
    const { targetId, label } = entry as LabelEntry;
    if (typeof targetId !== "string") continue;
    into.set(targetId, typeof label === "string" && label !== "" ? label : null);
  }
  return into;
}

/** Writes the `label` column of each target (targets that do not exist are ignored). */
export async function applyLabels(sql: Sql, input: { sessionId: string; labels: ReadonlyMap<string, string | null> }): Promise<void> {
  if (input.labels.size === 0) return;
  const payload = [...input.labels].map(([target, label]) => ({ target, label }));
  await sql.query(
    `UPDATE entries AS e SET label = x.label
     FROM jsonb_to_recordset($2::jsonb) AS x(target text, label text)
     WHERE e.session_id = $1 AND e.id = x.target`,
    [input.sessionId, toPgJson(payload)],
  );
}
