import "server-only";
/**
 * The `sync_files` rows (prisma/migrations/20270106000000_sync_files): per file path of a synced
 * folder (lib/sync), the session its content is in and what of the file was imported. lib/sync
 * saves a row only after the entries it describes are committed, so a row never claims more
 * than the database holds (a sync cut short is redone: entries already stored are recognised by
 * id, lib/sync/append.ts).
 */
import type { SyncFile } from "@/generated/prisma/client";
import type { FormatId } from "@/lib/formats/types";
import { getDb } from "../client";

export interface TrackedFile {
  path: string;
  sessionId: string;
  format: FormatId;
  /** What stat said when the file was last read (an opencode session: its files' total and newest). */
  size: number;
  mtimeMs: number;
  /** For a session spread over many files (opencode's storage): a digest of their names, sizes and mtimes; else null. */
  statDigest: string | null;
  importedBytes: number;
  prefixSha256: string;
  settledEntries: number;
  syncedLeafId: string | null;
  version: number;
}

function toTracked(r: SyncFile): TrackedFile {
  return {
    path: r.path,
    sessionId: r.sessionId,
    format: r.format as FormatId,
    size: Number(r.size),
    mtimeMs: r.mtimeMs,
    statDigest: r.statDigest,
    importedBytes: Number(r.importedBytes),
    prefixSha256: r.prefixSha256,
    settledEntries: r.settledEntries,
    syncedLeafId: r.syncedLeafId,
    version: r.version,
  };
}

export async function findTrackedFile(path: string): Promise<TrackedFile | null> {
  const row = await getDb().syncFile.findUnique({ where: { path } });
  return row ? toTracked(row) : null;
}

/** Prisma's `startsWith` is a LIKE pattern with `%`, `_` and `\` left live: a folder name holding them must match only itself. */
function literalLikePrefix(text: string): string {
  return text.replace(/[\\%_]/g, "\\$&");
}

/** Every tracked file below `folder` (a real, absolute path), by path: one query, what a sync compares its stats with. */
export async function listTrackedFiles(folder: string): Promise<TrackedFile[]> {
  const prefix = folder.endsWith("/") ? folder : `${folder}/`;
  const rows = await getDb().syncFile.findMany({ where: { path: { startsWith: literalLikePrefix(prefix) } }, orderBy: { path: "asc" } });
  return rows.map(toTracked);
}

/** Creates or replaces the row of `t.path`, stamped with the time of this sync. */
export async function saveTrackedFile(t: TrackedFile): Promise<void> {
  const row = {
    sessionId: t.sessionId,
    format: t.format,
    size: BigInt(t.size),
    mtimeMs: t.mtimeMs,
    statDigest: t.statDigest,
    importedBytes: BigInt(t.importedBytes),
    prefixSha256: t.prefixSha256,
    settledEntries: t.settledEntries,
    syncedLeafId: t.syncedLeafId,
    version: t.version,
    syncedAt: new Date(),
  };
  await getDb().syncFile.upsert({ where: { path: t.path }, create: { path: t.path, ...row }, update: row });
}
