import "server-only";
/**
 * Adding a synced file's new lines to the session an earlier sync imported it into.
 *
 * Contract:
 * - The candidates (remap.ts) whose ids the session already holds are compared with what is
 *   stored (sameEntry); equal ones are skipped (what the last sync stored from the mapper's
 *   `end()`, or a sync cut short). If one differs — a response that was still being written
 *   when the file was last synced has grown — nothing is appended and "changed" is returned:
 *   the caller imports the file again as a new version, so nothing of either is lost.
 * - The new entries go through the store's commit path (commitEntries: one statement, one
 *   transaction; the session's rev bumps, so other processes' read models catch up), in
 *   batches of COMMIT_BATCH. The leaf follows the file only if it is still where the last sync
 *   left it; a user who chatted on or moved the leaf in Arbor keeps theirs. A concurrent write
 *   (ConflictError) is retried against the new leaf.
 * - The caller then adds the file's new bytes to the stored original through the store
 *   (extendStoredSource: "Download original" returns the file as synced) and saves the
 *   sync_files row.
 */
import { commitEntries, ConflictError, findStoredEntries, getSessionMeta, type TrackedFile } from "@/lib/db";
import { sanitizeForPersist } from "@/lib/session/file/sanitize";
import type { SessionEntry } from "@/lib/session/types";
import { type Remapped, sameEntry } from "./remap";

export const COMMIT_BATCH = 2000;

export type AppendOutcome = { kind: "changed"; entryId: string } | { kind: "appended"; added: number; leafId: string | null };

/**
 * A Claude Code `summary` record names the leaf it titles; stored while that leaf was not in the
 * file yet, it became a custom entry. Once the leaf has arrived it is added as a label entry
 * under a derived id (the custom entry stays: entries are never changed).
 */
function isLateLabel(stored: unknown, mapped: SessionEntry): boolean {
  const s = stored as { type?: unknown; customType?: unknown };
  return mapped.type === "label" && s.type === "custom" && s.customType === "claude-code/summary";
}

function lateLabelId(id: string): string {
  return `${id}+label`;
}

/** Commits one batch; true when the leaf followed the file (it was where the last sync left it). */
async function commitBatch(sessionId: string, entries: SessionEntry[], syncedLeafId: string | null, fileLeaf: string): Promise<boolean> {
  for (let attempt = 0; ; attempt++) {
    const meta = await getSessionMeta({ id: sessionId });
    const follow = meta.leafId === syncedLeafId;
    try {
      await commitEntries({ sessionId, expectedLeafId: meta.leafId, entries, newLeafId: follow ? fileLeaf : meta.leafId });
      return follow;
    } catch (error) {
      if (!(error instanceof ConflictError) || attempt >= 3) throw error;
    }
  }
}

export async function appendNewEntries(tracked: TrackedFile, remapped: Remapped, signal?: AbortSignal): Promise<AppendOutcome> {
  const stored = await findStoredEntries({
    sessionId: tracked.sessionId,
    ids: remapped.candidates.flatMap((c) => [c.entry.id, lateLabelId(c.entry.id)]),
  });
  const fresh: SessionEntry[] = [];
  for (const { entry } of remapped.candidates) {
    const before = stored.get(entry.id);
    if (before === undefined) fresh.push(entry);
    else if (isLateLabel(before, entry)) {
      if (!stored.has(lateLabelId(entry.id))) fresh.push({ ...entry, id: lateLabelId(entry.id) });
    } else if (!sameEntry(before, sanitizeForPersist(entry))) return { kind: "changed", entryId: entry.id }; // compared in its stored form
  }
  let syncedLeafId = tracked.syncedLeafId;
  for (let i = 0; i < fresh.length; i += COMMIT_BATCH) {
    signal?.throwIfAborted();
    const batch = fresh.slice(i, i + COMMIT_BATCH);
    const fileLeaf = batch.at(-1)!.id;
    if (await commitBatch(tracked.sessionId, batch, syncedLeafId, fileLeaf)) syncedLeafId = fileLeaf;
  }
  return { kind: "appended", added: fresh.length, leafId: syncedLeafId };
}
