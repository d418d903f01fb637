import "server-only";
/**
 * The store's one write primitive for a session's tree: `commitEntries`.
 *
 * Contract (all in ONE transaction; on any error nothing is written):
 * 1. Compare-and-set of the session's leaf: the write names the leaf it expects; if the stored
 *    leaf is different (another tab wrote first) it throws ConflictError and writes nothing.
 *    The UPDATE takes the session row's lock, so concurrent commits to one session serialize:
 *    exactly one of several writers that expected the same leaf wins.
 * 2. The new entries must be new: an id the session already uses, or that an existing entry
 *    names as its (missing) parent, throws IdCollisionError. Every parent and the new leaf must
 *    exist (in the session or earlier in the batch), else NotFoundError `Entry ${id} not found`.
 * 3. Entries are inserted with seq = previous entry count + i (file order), sanitized
 *    (spec §1.9), with their query columns; label entries update their targets' `label`
 *    column (last one wins; cleared by undefined / "").
 * 4. The session's `leaf_id`, `entry_count`, `last_activity_at` and `model` (the last assistant's
 *    provider/model, or a model_change) are updated; an untitled session takes its first user
 *    message as title.
 * Entries are never updated or deleted here; a soft-deleted session refuses writes (NotFoundError).
 */
import { sessionDisplayName } from "@/lib/session/display-name";
import type { SessionEntry, SessionHeader } from "@/lib/session/types";
import { entryModel, toEntryRow } from "./entry-columns";
import { ConflictError, IdCollisionError, NotFoundError, StoreError } from "./errors";
import { normalizeTitle } from "./session-rows";
import { applyLabels, insertEntryRows, labelChanges, prismaSql, type Tx, withTransaction } from "./store-sql";

export interface CommitInput {
  sessionId: string;
  /** The leaf the caller's view is based on (null = before the first entry / after a reset). */
  expectedLeafId: string | null;
  /** New entries in append order (ids and parentIds already assigned, e.g. by a SessionTree). */
  entries: readonly SessionEntry[];
  /** The leaf after the write; default: the last new entry, or `expectedLeafId` when none. */
  newLeafId?: string | null;
  /** Further ids that must exist in the session (a label target, a compaction's firstKeptEntryId). */
  requiredIds?: readonly string[];
}

export interface CommitResult {
  leafId: string | null;
  entryCount: number;
  /** The entries as stored (sanitized). */
  entries: SessionEntry[];
}

const EMPTY_HEADER = { type: "session", id: "", timestamp: "", cwd: "" } satisfies SessionHeader;

async function checkReferences(
  tx: Tx,
  input: { sessionId: string; newIds: string[]; needed: Set<string> },
): Promise<void> {
  const { sessionId, newIds, needed } = input;
  if (newIds.length === 0 && needed.size === 0) return;
  const lookup = [...new Set([...newIds, ...needed])];
  const hits = await tx.$queryRaw<{ hit: string; kind: "id" | "parent" }[]>`
    SELECT id AS hit, 'id' AS kind FROM entries WHERE session_id = ${sessionId} AND id = ANY(${lookup}::text[])
    UNION ALL
    SELECT DISTINCT parent_id AS hit, 'parent' AS kind FROM entries
    WHERE session_id = ${sessionId} AND parent_id = ANY(${newIds}::text[])`;
  const existing = new Set(hits.filter((h) => h.kind === "id").map((h) => h.hit));
  const referenced = new Set(hits.filter((h) => h.kind === "parent").map((h) => h.hit));
  const collisions = newIds.filter((id) => existing.has(id) || referenced.has(id));
  if (collisions.length > 0) throw new IdCollisionError({ sessionId, ids: collisions });
  for (const id of needed) if (!existing.has(id)) throw new NotFoundError({ sessionId, entryId: id });
}

async function explainNoUpdate(tx: Tx, input: { sessionId: string; expectedLeafId: string | null }): Promise<never> {
  const rows = await tx.$queryRaw<{ leaf_id: string | null; deleted_at: Date | null }[]>`
    SELECT leaf_id, deleted_at FROM sessions WHERE id = ${input.sessionId}`;
  const row = rows[0];
  if (!row) throw new NotFoundError({ sessionId: input.sessionId });
  if (row.deleted_at) {
    throw new NotFoundError({ sessionId: input.sessionId, message: `Session ${input.sessionId} is deleted; restore it first` });
  }
  throw new ConflictError({ sessionId: input.sessionId, expectedLeafId: input.expectedLeafId, actualLeafId: row.leaf_id });
}

export async function commitEntries(input: CommitInput): Promise<CommitResult> {
  const { sessionId, expectedLeafId } = input;
  const rows = input.entries.map((entry) => toEntryRow(entry));
  const newIds: string[] = [];
  const batch = new Set<string>();
  for (const row of rows) {
    if (typeof row.id !== "string" || row.id === "") throw new StoreError("Cannot store an entry without an id");
    if (batch.has(row.id)) throw new IdCollisionError({ sessionId, ids: [row.id] });
    batch.add(row.id);
    newIds.push(row.id);
  }
  const newLeafId = input.newLeafId !== undefined ? input.newLeafId : (rows.at(-1)?.id ?? expectedLeafId);

  // References that must already exist: parents outside the batch, and the new leaf.
  const needed = new Set<string>();
  const seenSoFar = new Set<string>();
  for (const row of rows) {
    if (row.parentId !== null && row.parentId !== row.id && !seenSoFar.has(row.parentId)) needed.add(row.parentId);
    seenSoFar.add(row.id);
  }
  if (newLeafId !== null && !batch.has(newLeafId)) needed.add(newLeafId);
  for (const id of input.requiredIds ?? []) if (!batch.has(id)) needed.add(id);

  let model: string | null = null;
  for (const row of rows) model = entryModel(row.data) ?? model;
  const title = normalizeTitle(sessionDisplayName(EMPTY_HEADER, rows.map((r) => r.data))) ?? null;
  const data = rows.map((r) => r.data);

  const entryCount = await withTransaction(async (tx) => {
    const updated = await tx.$queryRaw<{ entry_count: number }[]>`
      UPDATE sessions
      SET leaf_id = ${newLeafId}, entry_count = entry_count + ${rows.length}::int,
          last_activity_at = now(), updated_at = now(),
          model = COALESCE(${model}::text, model), title = COALESCE(title, ${title}::text)
      WHERE id = ${sessionId} AND deleted_at IS NULL AND leaf_id IS NOT DISTINCT FROM ${expectedLeafId}::text
      RETURNING entry_count`;
    const count = updated[0]?.entry_count;
    if (count === undefined) return explainNoUpdate(tx, { sessionId, expectedLeafId });
    await checkReferences(tx, { sessionId, newIds, needed });
    await insertEntryRows(prismaSql(tx), { sessionId, rows, firstSeq: count - rows.length });
    await applyLabels(prismaSql(tx), { sessionId, labels: labelChanges(data) });
    return count;
  });
  return { leafId: newLeafId, entryCount, entries: data };
}
