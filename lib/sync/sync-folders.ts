import "server-only";
/**
 * Syncing whole folders: every `*.jsonl` below each folder (recursively, subagent files
 * included), one file at a time (sync-file.ts), with progress and cancellation as for imports.
 *
 * Contract:
 * - Folders are real paths (symlinks resolved) so a file is tracked under one path; a folder
 *   that does not exist or is not a folder fails at once with a message naming it.
 * - Events, in order: `start` (the files found), per file `progress`* (the import's bytes and
 *   entries) then `file` (its outcome), and tracked files no longer on disk as `file` with
 *   outcome "gone" (their sessions stay); finally the summary is returned.
 * - `only` (a watcher's changed paths) syncs just those files, present or deleted.
 * - `signal` aborts the file being synced (an import rolls back; an append is committed batch
 *   by batch, each whole) and stops before the next file; the abort's reason is thrown.
 */
import { readdir, realpath, stat } from "node:fs/promises";
import path from "node:path";
import { type ImportProgress, listTrackedFiles } from "@/lib/db";
import type { FileOutcome } from "@/lib/types/sync-events";
import { syncFile } from "./sync-file";

export type SyncEvent =
  | { type: "start"; files: number; folders: string[] }
  | { type: "progress"; file: string; index: number; bytes: number; totalBytes?: number; entries: number }
  | { type: "file"; file: string; index: number; outcome: FileOutcome };

export interface SyncSummary {
  folders: string[];
  files: { file: string; outcome: FileOutcome }[];
  counts: Record<FileOutcome["kind"], number>;
}

export class SyncFolderError extends Error {
  override name = "SyncFolderError";
}

/** The real path of a folder to sync, or SyncFolderError. */
export async function realFolder(folder: string): Promise<string> {
  const real = await realpath(path.resolve(folder)).catch(() => {
    throw new SyncFolderError(`Folder ${folder} does not exist`);
  });
  if (!(await stat(real)).isDirectory()) throw new SyncFolderError(`${folder} is not a folder`);
  return real;
}

/** Every `*.jsonl` file below `folder`, sorted (a session file before its subagents folder). */
export async function sessionFiles(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith(".jsonl"))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

function emptyCounts(): SyncSummary["counts"] {
  return { imported: 0, appended: 0, unchanged: 0, rewritten: 0, waiting: 0, gone: 0, failed: 0 };
}

export async function syncFolders(
  folders: readonly string[],
  opts: { signal?: AbortSignal; settleMs?: number; onEvent?: (e: SyncEvent) => void; only?: ReadonlySet<string> } = {},
): Promise<SyncSummary> {
  const real: string[] = [];
  for (const f of folders) real.push(await realFolder(f));
  const files = new Set<string>();
  if (opts.only) {
    // Named files (a watcher's changes), present or deleted, inside the folders.
    for (const file of [...opts.only].sort()) if (file.endsWith(".jsonl") && real.some((f) => file.startsWith(`${f}${path.sep}`))) files.add(file);
  } else {
    for (const f of real) for (const file of await sessionFiles(f)) files.add(file);
  }
  const list = [...files];
  opts.onEvent?.({ type: "start", files: list.length, folders: real });
  const summary: SyncSummary = { folders: real, files: [], counts: emptyCounts() };
  const record = (file: string, index: number, outcome: FileOutcome) => {
    summary.files.push({ file, outcome });
    summary.counts[outcome.kind] += 1;
    opts.onEvent?.({ type: "file", file, index, outcome });
  };
  const fileOpts = { ...(opts.signal ? { signal: opts.signal } : {}), ...(opts.settleMs !== undefined ? { settleMs: opts.settleMs } : {}) };
  for (const [index, file] of list.entries()) {
    opts.signal?.throwIfAborted();
    const onProgress = (p: ImportProgress) => opts.onEvent?.({ type: "progress", file, index, bytes: p.bytes, entries: p.entries, ...(p.totalBytes ? { totalBytes: p.totalBytes } : {}) });
    record(file, index, await syncFile(file, { ...fileOpts, onProgress }));
  }
  if (!opts.only) {
    for (const folder of real) {
      for (const t of await listTrackedFiles(folder)) {
        if (!files.has(t.path)) record(t.path, list.length, await syncFile(t.path, fileOpts));
      }
    }
  }
  return summary;
}

function heldNote(o: { held?: true }): string {
  return o.held ? "; its last response is still being written and follows on a later sync" : "";
}

/** One line about a file's outcome, for the CLI and the page. */
export function describeOutcome(o: FileOutcome): string {
  switch (o.kind) {
    case "imported":
      return `${o.adopted ? `already in Arbor as ${o.sessionId}; now kept in sync` : `imported → ${o.sessionId} (${o.entries} entries, ${o.records} records)`}${heldNote(o)}`;
    case "appended":
      return `${o.added} new ${o.added === 1 ? "entry" : "entries"} → ${o.sessionId}${heldNote(o)}`;
    case "unchanged":
      return "unchanged";
    case "rewritten":
      return `rewritten (${o.why}): imported again as version ${o.version} → ${o.sessionId}; ${o.previousSessionId} is kept`;
    case "waiting":
      return `waiting: ${o.why}`;
    case "gone":
      return `deleted from the folder; session ${o.sessionId} stays in Arbor`;
    case "failed":
      return `error: ${o.message}`;
  }
}
