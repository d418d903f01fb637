import "server-only";
/**
 * Session-level writes: create, rename, soft-delete / restore, and fork to a new session.
 *
 * Contract:
 * - `createSession` writes a v3 header (session-engine.md §1.2) and an empty session (leaf null).
 * - `renameSession` sets the display title and the header's `title` (oh-my-pi's field), so an
 *   export carries it; an empty title clears both.
 * - `softDeleteSession` hides a session from the list and refuses writes; `restoreSession`
 *   brings it back unchanged. Nothing is removed here: the Trash deletes a session for good
 *   after 30 days, or when asked (session-trash.ts).
 * - Rename, delete and restore are plain row writes through the typed client.
 * - `forkSession` is the engine's createBranchedSession (session-engine.md §1.6: the path without label
 *   entries, fresh label entries for labels on the path, `parentSession` = the source id),
 *   written as a new session in one transaction, with the secrets found in its entries (scanned
 *   again: a pruned output's original stays with the source). The source session is unchanged.
 */
import { generateSessionId } from "@/lib/session/file/ids";
import { CURRENT_SESSION_VERSION, type SessionEntry, type SessionHeader } from "@/lib/session/types";
import { getDb } from "../client";
import { entryModel, toEntryRow } from "./entry-columns";
import { attachPartition, insertDetached, partitionOf } from "./entry-partitions";
import { IdCollisionError, NotFoundError, SessionExistsError } from "../errors";
import { toPgJson, toPgText } from "../pg-json";
import type { Prisma } from "@/generated/prisma/client";
import { normalizeTitle, SESSION_COLUMNS, SESSION_SELECT, type SessionMeta, type SessionRow, toSessionMeta } from "./session-rows";
import { readSession } from "../read-model";
import { indexWholeSession } from "../search/search-index";
import { findingRowsOfAll, insertFindings } from "./secret-findings";
import { claimCounted, releaseCounted, writeLedger } from "../usage/ledger-write";
import { usageRows } from "@/lib/usage/rows";
import {
  applyLabels,
  insertEntryRows,
  isUniqueViolation,
  labelChanges,
  prismaSql,
  type Sql,
  withBulkTransaction,
} from "./sql";

export interface NewSessionRow {
  header: SessionHeader;
  title?: string | null;
  sourceFileName?: string | null;
  createdAt?: Date;
  lastActivityAt?: Date;
}

/**
 * Inserts the session row (no entries yet). Internal: import and fork call it in their bulk
 * transaction. Raw SQL because that transaction is a pg client (sql.ts `Sql`), which the
 * typed client cannot join; createSession shares it so there is one insert.
 */
export async function insertSessionRow(sql: Sql, input: NewSessionRow): Promise<SessionRow> {
  const { header } = input;
  const now = new Date();
  try {
    const rows = await sql.query<SessionRow>(
      `INSERT INTO sessions (id, title, header, cwd, parent_session, source_file_name, created_at, updated_at, last_activity_at)
       VALUES ($1, $2, $3::jsonb, $4, $5, $6, $7, now(), $8) RETURNING ${SESSION_COLUMNS}`,
      [
        header.id,
        input.title ?? null,
        toPgJson(header),
        typeof header.cwd === "string" ? toPgText(header.cwd) : "",
        typeof header.parentSession === "string" ? toPgText(header.parentSession) : null,
        input.sourceFileName === undefined || input.sourceFileName === null ? null : toPgText(input.sourceFileName),
        input.createdAt ?? now,
        input.lastActivityAt ?? now,
      ],
    );
    return rows[0]!;
  } catch (error) {
    if (isUniqueViolation(error, "sessions_pkey")) throw new SessionExistsError({ sessionId: header.id });
    throw error;
  }
}

/**
 * Sets the bookkeeping of a session written in bulk (import, fork); a bulk write counts as a
 * rewrite (rev, rewrite_rev). Raw SQL: it runs in the bulk transaction (see insertSessionRow).
 */
export async function finishSessionRow(
  sql: Sql,
  input: { id: string; leafId: string | null; entryCount: number; model: string | null; title?: string | null; lastActivityAt?: Date | null },
): Promise<void> {
  await sql.query(
    `UPDATE sessions SET leaf_id = $2, entry_count = $3::int, model = $4::text, rev = rev + 1, rewrite_rev = rev + 1,
       title = CASE WHEN $5::boolean THEN $6::text ELSE title END,
       last_activity_at = COALESCE($7::timestamptz, last_activity_at)
     WHERE id = $1`,
    [input.id, input.leafId, input.entryCount, input.model, input.title !== undefined, input.title ?? null, input.lastActivityAt ?? null],
  );
}

/**
 * Links the session's file names (a Claude Code `pr-link`: the pull request the session made),
 * kept in the header as `links` (shown on the session page; pi ignores unknown header fields).
 */
export async function setHeaderLinks(sql: Sql, id: string, links: { url: string; title: string }[]): Promise<void> {
  await sql.query(`UPDATE sessions SET header = jsonb_set(header::jsonb, '{links}', $2::jsonb) WHERE id = $1`, [id, toPgJson(links)]);
}

export async function createSession(
  input: { title?: string; cwd?: string; header?: Partial<SessionHeader> } = {},
): Promise<SessionMeta> {
  const title = normalizeTitle(input.title ?? input.header?.title);
  const header: SessionHeader = {
    ...input.header,
    type: "session",
    version: input.header?.version ?? CURRENT_SESSION_VERSION,
    id: input.header?.id ?? generateSessionId(),
    timestamp: input.header?.timestamp ?? new Date().toISOString(),
    cwd: input.cwd ?? input.header?.cwd ?? "",
    ...(title ? { title } : {}),
  };
  return toSessionMeta(await insertSessionRow(prismaSql(getDb()), { header, title: title ?? null }));
}

/**
 * Reads the session row and writes what `change` returns (nothing for null), in one
 * transaction; NotFoundError when there is no such session.
 */
async function updateRow(
  id: string,
  change: (row: SessionRow) => Prisma.SessionUpdateInput | null,
  /** Runs after a write, in its transaction (the usage ledger's counted rows on delete / restore). */
  after?: (sql: Sql, sessionId: string) => Promise<void>,
): Promise<SessionMeta> {
  return getDb().$transaction(async (tx) => {
    const row = await tx.session.findUnique({ where: { id }, select: SESSION_SELECT });
    if (!row) throw new NotFoundError({ sessionId: id });
    const data = change(row);
    if (!data) return toSessionMeta(row);
    const updated = await tx.session.update({ where: { id }, data, select: SESSION_SELECT });
    await after?.(prismaSql(tx), id);
    return toSessionMeta(updated);
  });
}

/** Renames the session; an empty title clears it. */
export async function renameSession(input: { id: string; title: string | null }): Promise<SessionMeta> {
  const title = normalizeTitle(input.title) ?? null;
  return updateRow(input.id, (row) => {
    const { title: _old, ...header } = row.header as Record<string, unknown>;
    return { title, header: (title === null ? header : { ...header, title }) as Prisma.InputJsonObject };
  });
}

/** Moves the session to the trash (hidden from the list, read-only). Idempotent: keeps the first deletion time. */
export async function softDeleteSession(input: { id: string }): Promise<SessionMeta> {
  return updateRow(input.id, (row) => (row.deletedAt ? null : { deletedAt: new Date() }), releaseCounted);
}

/** Undoes softDeleteSession. Idempotent. */
export async function restoreSession(input: { id: string }): Promise<SessionMeta> {
  return updateRow(input.id, (row) => (row.deletedAt ? { deletedAt: null } : null), claimCounted);
}

/**
 * Writes a complete new session (header + entries in file order) in the caller's transaction.
 * The entries fill the session's standalone partition, attached once they are all in
 * (lib/db/store/entry-partitions.ts); a repeated id is IdCollisionError before anything is written.
 */
export async function writeWholeSession(
  sql: Sql,
  input: NewSessionRow & { entries: readonly SessionEntry[]; leafId: string | null },
): Promise<SessionRow> {
  const rows = input.entries.map((entry) => toEntryRow(entry));
  const seen = new Set<string>();
  const repeated: string[] = [];
  for (const r of rows) {
    if (seen.has(r.id)) repeated.push(r.id);
    else seen.add(r.id);
  }
  if (repeated.length > 0) throw new IdCollisionError({ sessionId: input.header.id, ids: repeated });
  const row = await insertDetached(sql, () => insertSessionRow(sql, input));
  const table = await partitionOf(sql, row.id);
  const BATCH = 1000;
  for (let i = 0; i < rows.length; i += BATCH) {
    await insertEntryRows(sql, { sessionId: row.id, rows: rows.slice(i, i + BATCH), firstSeq: i, table });
  }
  await attachPartition(sql, row.id);
  await insertFindings(sql, row.id, await findingRowsOfAll(rows.map((r) => r.data)));
  await applyLabels(sql, { sessionId: row.id, labels: labelChanges(rows.map((r) => r.data)) });
  let model: string | null = null;
  for (const r of rows) model = entryModel(r.data) ?? model;
  await finishSessionRow(sql, { id: row.id, leafId: input.leafId, entryCount: rows.length, model });
  await indexWholeSession(sql, { sessionId: row.id, count: rows.length });
  await writeLedger(sql, row.id, usageRows(input.header, rows.map((r) => r.data)));
  return row;
}

export interface ForkResult {
  sessionId: string;
  leafId: string | null;
  entryCount: number;
}

/**
 * "Fork to new session" (session-engine.md §1.6 createBranchedSession) from `leafId` (default: the stored
 * leaf). The new session's title is `title`, else the source's. Returns the new session's id.
 */
export async function forkSession(input: { sessionId: string; leafId?: string; title?: string }): Promise<ForkResult> {
  const { meta, tree } = await readSession({ sessionId: input.sessionId });
  const leafId = input.leafId ?? meta.leafId;
  if (leafId === null || !tree.getEntry(leafId)) {
    throw new NotFoundError({ sessionId: input.sessionId, entryId: leafId ?? "null" });
  }
  const forked = tree.createBranchedSession(leafId, { parentSession: input.sessionId });
  const title = normalizeTitle(input.title) ?? meta.title;
  const newLeaf = forked.entries.at(-1)?.id ?? null;
  await withBulkTransaction((sql) => writeWholeSession(sql, { header: forked.header, title, entries: forked.entries, leafId: newLeaf }));
  return { sessionId: forked.header.id, leafId: newLeaf, entryCount: forked.entries.length };
}
