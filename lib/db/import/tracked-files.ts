import "server-only";
/**
 * The `sync_files` rows (prisma/migrations/20270106000000_sync_files): per file path, the
 * session its content is in and what of the file was imported. Written only after the entries
 * they describe are committed, so a row never claims more than the database holds (a sync cut
 * short is redone: entries already stored are recognised by id, see append.ts).
 */
import { getDb } from "@/lib/db";
import type { FormatId } from "@/lib/formats/types";

export interface TrackedFile {
  path: string;
  sessionId: string;
  format: FormatId;
  size: number;
  mtimeMs: number;
  importedBytes: number;
  prefixSha256: string;
  settledEntries: number;
  syncedLeafId: string | null;
  version: number;
}

interface Row {
  path: string;
  session_id: string;
  format: string;
  size: bigint;
  mtime_ms: number;
  imported_bytes: bigint;
  prefix_sha256: string;
  settled_entries: number;
  synced_leaf_id: string | null;
  version: number;
}

function toTracked(r: Row): TrackedFile {
  return {
    path: r.path,
    sessionId: r.session_id,
    format: r.format as FormatId,
    size: Number(r.size),
    mtimeMs: r.mtime_ms,
    importedBytes: Number(r.imported_bytes),
    prefixSha256: r.prefix_sha256,
    settledEntries: r.settled_entries,
    syncedLeafId: r.synced_leaf_id,
    version: r.version,
  };
}

export async function findTracked(path: string): Promise<TrackedFile | null> {
  const rows = await getDb().$queryRawUnsafe<Row[]>(`SELECT * FROM sync_files WHERE path = $1`, path);
  return rows[0] ? toTracked(rows[0]) : null;
}

/** Every tracked file below `folder` (a real, absolute path). */
export async function listTracked(folder: string): Promise<TrackedFile[]> {
  const prefix = folder.endsWith("/") ? folder : `${folder}/`;
  const rows = await getDb().$queryRawUnsafe<Row[]>(`SELECT * FROM sync_files WHERE starts_with(path, $1) ORDER BY path`, prefix);
  return rows.map(toTracked);
}

export async function saveTracked(t: TrackedFile): Promise<void> {
  await getDb().$executeRawUnsafe(
    `INSERT INTO sync_files (path, session_id, format, size, mtime_ms, imported_bytes, prefix_sha256, settled_entries, synced_leaf_id, version, synced_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, now())
     ON CONFLICT (path) DO UPDATE SET session_id = $2, format = $3, size = $4, mtime_ms = $5, imported_bytes = $6,
       prefix_sha256 = $7, settled_entries = $8, synced_leaf_id = $9, version = $10, synced_at = now()`,
    t.path,
    t.sessionId,
    t.format,
    BigInt(t.size),
    t.mtimeMs,
    BigInt(t.importedBytes),
    t.prefixSha256,
    t.settledEntries,
    t.syncedLeafId,
    t.version,
  );
}
