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
 * - Then, in one transaction, the file's new bytes are added to the stored original
 *   (session_source_chunks; "Download original" returns the file as synced) and its facts
 *   updated. The caller then saves the sync_files row.
 */
import { open } from "node:fs/promises";
import { commitEntries, ConflictError, encodeSourceChunk, getDb, getSessionMeta, SOURCE_CHUNK_BYTES, toEntryRow, withTransaction } from "@/lib/db";
import type { SessionEntry } from "@/lib/session/types";
import { type Remapped, sameEntry } from "./remap";
import type { TrackedFile } from "./tracked";

export const COMMIT_BATCH = 2000;

export type AppendOutcome = { kind: "changed"; entryId: string } | { kind: "appended"; added: number; leafId: string | null };

async function storedData(sessionId: string, ids: string[]): Promise<Map<string, unknown>> {
  if (ids.length === 0) return new Map();
  const rows = await getDb().$queryRawUnsafe<{ id: string; data: unknown }[]>(
    `SELECT id, data FROM entries WHERE session_id = $1 AND id = ANY($2::text[])`,
    sessionId,
    ids,
  );
  return new Map(rows.map((r) => [r.id, r.data]));
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
  const stored = await storedData(
    tracked.sessionId,
    remapped.candidates.map((c) => c.entry.id),
  );
  const fresh: SessionEntry[] = [];
  for (const { entry } of remapped.candidates) {
    const before = stored.get(entry.id);
    if (before === undefined) fresh.push(entry);
    else if (!sameEntry(before, toEntryRow(entry).data)) return { kind: "changed", entryId: entry.id };
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

/** Appends bytes [stored size, prefixBytes) of the file to the session's stored original. */
export async function extendOriginal(input: { sessionId: string; file: string; remapped: Remapped }): Promise<void> {
  const { sessionId, file, remapped } = input;
  await withTransaction(async (tx) => {
    const [src] = await tx.$queryRawUnsafe<{ bytes: number; chunks: number; compression: string | null }[]>(
      `SELECT bytes, compression, (SELECT count(*)::int FROM session_source_chunks c WHERE c.session_id = s.session_id) AS chunks
       FROM session_sources s WHERE s.session_id = $1 FOR UPDATE`,
      sessionId,
    );
    if (!src) return; // imported before originals were kept
    const handle = await open(file, "r");
    try {
      let seq = src.chunks;
      const chunk = Buffer.alloc(SOURCE_CHUNK_BYTES);
      for (let pos = src.bytes; pos < remapped.prefixBytes; ) {
        const want = Math.min(SOURCE_CHUNK_BYTES, remapped.prefixBytes - pos);
        const { bytesRead } = await handle.read(chunk, 0, want, pos);
        if (bytesRead === 0) break;
        pos += bytesRead;
        // Stored the way the import stored the rest (its compression: lib/db/source-codec.ts).
        const data = await encodeSourceChunk(src.compression, Buffer.from(chunk.subarray(0, bytesRead)));
        await tx.$executeRawUnsafe(`INSERT INTO session_source_chunks (session_id, seq, data) VALUES ($1, $2, $3)`, sessionId, seq++, data);
      }
    } finally {
      await handle.close();
    }
    await tx.$executeRawUnsafe(
      `UPDATE session_sources SET bytes = $2, sha256 = $3, records = $4 WHERE session_id = $1`,
      sessionId,
      remapped.prefixBytes,
      remapped.prefixSha256,
      remapped.records,
    );
  });
}
