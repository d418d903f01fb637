import "server-only";
/**
 * Reading sessions: metadata, all entries in file order, the root → leaf path, and a ready
 * SessionTree for the app layer.
 *
 * Contract:
 * - Entries come back exactly as stored (the JSONB `data`, i.e. the current form: a pruned tool
 *   result holds its notice; the original is in `pruned_original`).
 * - `loadPath` is ONE query (a recursive CTE walking `parent_id` from the leaf), root first.
 *   Like the engine's getBranch (session-engine.md §1.6) a missing parent ends the walk and an unknown or
 *   null leaf gives []. Malformed cycles stop at the first revisit; the recursion is bounded
 *   by the session's entry count, so it always terminates.
 * - Reads of a soft-deleted session still work (its meta says `deletedAt`); a session that does
 *   not exist throws NotFoundError.
 */
import { getDb } from "../client";
import { NotFoundError } from "../errors";
import { entryOf } from "./entry-columns";
import { SESSION_SELECT, type SessionMeta, toSessionMeta } from "./session-rows";
import type { SessionEntry } from "@/lib/session/types";
import { SessionTree, type SessionTreeOptions } from "@/lib/session/tree/tree";
import { Prisma } from "@/generated/prisma/client";
import type { Tx } from "./sql";

type Reader = Pick<Tx, "session" | "$queryRaw">;

export async function readSessionMeta(db: Reader, id: string): Promise<SessionMeta | null> {
  const row = await db.session.findUnique({ where: { id }, select: SESSION_SELECT });
  return row ? toSessionMeta(row) : null;
}

/** The session's metadata, including soft-deleted sessions; throws NotFoundError if absent. */
export async function getSessionMeta(input: { id: string }): Promise<SessionMeta> {
  const meta = await readSessionMeta(getDb(), input.id);
  if (!meta) throw new NotFoundError({ sessionId: input.id });
  return meta;
}

/** Like getSessionMeta, but null instead of NotFoundError. */
export async function findSessionMeta(input: { id: string }): Promise<SessionMeta | null> {
  return readSessionMeta(getDb(), input.id);
}

async function readEntries(db: Reader, sessionId: string): Promise<SessionEntry[]> {
  // Raw SQL: one query for what the typed client needs two for. The LEFT JOIN tells "no such
  // session" (no row) from "no entries" (one row, data null). It names the session id itself,
  // not s.id: a constant picks the session's one partition of entries when the query is
  // planned (migration 20270125000000_entries_hashed); through s.id all sixteen are opened.
  const rows = await db.$queryRaw<{ data: string | null }[]>`
    SELECT e.data FROM sessions s LEFT JOIN entries e ON e.session_id = ${sessionId}
    WHERE s.id = ${sessionId} ORDER BY e.seq`;
  if (rows.length === 0) throw new NotFoundError({ sessionId });
  const entries: SessionEntry[] = [];
  for (const r of rows) if (r.data !== null) entries.push(entryOf(r.data));
  return entries;
}

/**
 * The stored `data` of those of `ids` the session holds, by id (a sync compares what it would
 * add with what is there). Raw SQL: the ids travel as ONE array parameter, however many (a
 * large sync asks for tens of thousands; the typed client's `in` binds one parameter each).
 */
export async function findStoredEntries(input: { sessionId: string; ids: string[] }): Promise<Map<string, unknown>> {
  if (input.ids.length === 0) return new Map();
  const rows = await getDb().$queryRawUnsafe<{ id: string; data: string }[]>(
    `SELECT id, data FROM entries WHERE session_id = $1 AND id = ANY($2::text[])`,
    input.sessionId,
    input.ids,
  );
  return new Map(rows.map((r) => [r.id, entryOf(r.data)]));
}

/** Every entry of every branch, in file order. */
export async function loadEntries(input: { sessionId: string }): Promise<SessionEntry[]> {
  return readEntries(getDb(), input.sessionId);
}

/**
 * The path root → `leafId`, in one query. `leafId` undefined = the stored leaf; null = [].
 */
export async function loadPath(input: { sessionId: string; leafId?: string | null }): Promise<SessionEntry[]> {
  const { sessionId } = input;
  if (input.leafId === null) {
    await getSessionMeta({ id: sessionId });
    return [];
  }
  const leaf = input.leafId === undefined ? Prisma.sql`s.leaf_id` : Prisma.sql`${input.leafId}::text`;
  // Raw SQL: the path is a recursive CTE, one round trip however deep (the typed client would
  // walk parent by parent). depth -1 is a marker row: present iff the session exists.
  const rows = await getDb().$queryRaw<{ depth: number; id: string | null; data: string | null }[]>`
    WITH RECURSIVE start AS (
      SELECT ${leaf} AS leaf, s.entry_count AS max_depth FROM sessions s WHERE s.id = ${sessionId}
    ), path AS (
      SELECT e.id, e.parent_id, e.data, 0 AS depth
      FROM start JOIN entries e ON e.session_id = ${sessionId} AND e.id = start.leaf
      UNION ALL
      SELECT e.id, e.parent_id, e.data, p.depth + 1
      FROM path p JOIN entries e ON e.session_id = ${sessionId} AND e.id = p.parent_id
      WHERE p.parent_id <> p.id AND p.depth < (SELECT max_depth FROM start)
    )
    SELECT -1 AS depth, NULL::text AS id, NULL::text AS data FROM start
    UNION ALL SELECT depth, id, data FROM path
    ORDER BY depth`;
  if (rows.length === 0) throw new NotFoundError({ sessionId });
  const path: SessionEntry[] = [];
  const seen = new Set<string>();
  for (const row of rows) {
    if (row.depth < 0 || row.data === null || row.id === null) continue;
    if (seen.has(row.id)) break; // a cycle in malformed data: stop at the revisit, like pathToRoot
    seen.add(row.id);
    path.push(entryOf(row.data));
  }
  return path.reverse();
}

export interface LoadedTree {
  meta: SessionMeta;
  /** All entries, leaf = the stored leaf. `tree.getEntryCount() === meta.entryCount`. */
  tree: SessionTree;
}

/**
 * The whole session as an engine SessionTree positioned on the stored leaf. Meta and entries
 * are read in one REPEATABLE READ snapshot, so they always agree.
 */
export async function loadTree(input: { sessionId: string; treeOptions?: SessionTreeOptions }): Promise<LoadedTree> {
  const { meta, entries } = await getDb().$transaction(
    async (tx) => {
      const meta = await readSessionMeta(tx, input.sessionId);
      if (!meta) throw new NotFoundError({ sessionId: input.sessionId });
      return { meta, entries: await readEntries(tx, input.sessionId) };
    },
    { isolationLevel: "RepeatableRead", maxWait: 15_000, timeout: 60_000 },
  );
  const tree = new SessionTree(meta.header, entries, input.treeOptions);
  if (meta.leafId === null) tree.resetLeaf();
  else if (tree.getEntry(meta.leafId)) tree.branch(meta.leafId);
  return { meta, tree };
}
