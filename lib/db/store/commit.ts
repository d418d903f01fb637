import "server-only";
/**
 * The store's one write primitive for a session's tree: `commitEntries`.
 *
 * Contract (ONE statement, commit-sql.ts, hence one implicit transaction; on any error
 * nothing is written):
 * 1. Compare-and-set of the session's leaf: the write names the leaf it expects; if the stored
 *    leaf is different (another tab wrote first) it throws ConflictError and writes nothing.
 *    The UPDATE takes the session row's lock, so concurrent commits to one session serialize:
 *    exactly one of several writers that expected the same leaf wins.
 * 2. The new entries must be new: an id the session already uses, or that an existing entry
 *    names as its (missing) parent, throws IdCollisionError. Every parent and the new leaf must
 *    exist (in the session or earlier in the batch), else NotFoundError `Entry ${id} not found`.
 * 3. Entries are inserted with seq = previous entry count + i (file order), sanitized
 *    (session-engine.md §1.9), with their query columns; label entries update their targets' `label`
 *    column (last one wins; cleared by undefined / "").
 * 4. The session's `leaf_id`, `entry_count`, `rev` (+1), `last_activity_at` and `model` (the
 *    last assistant's provider/model, or a model_change) are updated; an untitled session takes
 *    its first user message as title. The result carries the new `rev`, and this process's
 *    read model is told (noteCommitted: it adds the entries only if it was at rev − 1).
 * Entries are never updated or deleted here; a soft-deleted session refuses writes (NotFoundError).
 */
import { sessionDisplayName } from "@/lib/session/display-name";
import type { SessionEntry, SessionHeader } from "@/lib/session/types";
import { getDb } from "../client";
import { entryModel, toEntryRow } from "./entry-columns";
import { ConflictError, IdCollisionError, NotFoundError, StoreError } from "../errors";
import { normalizeTitle } from "./session-rows";
import { noteCommitted } from "../read-model";
import { type CommitStatementRow, commitStatement } from "./commit-sql";
import { isEntryIdViolation, labelChanges } from "./sql";

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
  /** The session's data version after this commit (sessions.rev). */
  rev: number;
}

const EMPTY_HEADER = { type: "session", id: "", timestamp: "", cwd: "" } satisfies SessionHeader;

function refusal(input: { sessionId: string; expectedLeafId: string | null }, row: CommitStatementRow | undefined): Error {
  const { sessionId, expectedLeafId } = input;
  if (!row?.exists) return new NotFoundError({ sessionId });
  if (row.deleted) return new NotFoundError({ sessionId, message: `Session ${sessionId} is deleted; restore it first` });
  if (row.leaf_id !== expectedLeafId) return new ConflictError({ sessionId, expectedLeafId, actualLeafId: row.leaf_id });
  if (row.collisions.length > 0) return new IdCollisionError({ sessionId, ids: row.collisions });
  const missing = row.missing[0];
  if (missing !== undefined) return new NotFoundError({ sessionId, entryId: missing });
  // The snapshot saw the expected leaf, but the locked row had moved: another writer won.
  return new ConflictError({ sessionId, expectedLeafId, actualLeafId: null });
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

  const statement = commitStatement({
    sessionId,
    expectedLeafId,
    newLeafId,
    rows,
    newIds,
    needed: [...needed],
    labels: labelChanges(data),
    model,
    title,
  });
  let row: CommitStatementRow | undefined;
  try {
    [row] = await getDb().$queryRawUnsafe<CommitStatementRow[]>(statement.text, ...statement.params);
  } catch (error) {
    if (isEntryIdViolation(error)) throw new IdCollisionError({ sessionId, ids: newIds });
    throw error;
  }
  if (row?.entry_count === null || row?.entry_count === undefined || row.rev === null) throw refusal(input, row);
  noteCommitted({ sessionId, rev: row.rev, entries: data });
  return { leafId: newLeafId, entryCount: row.entry_count, entries: data, rev: row.rev };
}
