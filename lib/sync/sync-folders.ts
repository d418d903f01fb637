import "server-only";
/**
 * Syncing whole folders: every session file below each folder (recursively, subagent files
 * included: `*.jsonl`, Gemini CLI's `session-*.json`, and opencode's storage sessions
 * `session/<projectID>/<sessionID>.json`), one file at a time (sync-file.ts), with progress and
 * cancellation as for imports.
 *
 * Contract:
 * - Folders are real paths (symlinks resolved) so a file is tracked under one path; a folder
 *   that does not exist or is not a folder fails at once with a message naming it.
 * - Events, in order: `start` (the files found and their bytes, for overall progress), per file
 *   `progress`* (the import's bytes and entries) then `file` (its outcome and size), and tracked
 *   files no longer on disk as `file` with outcome "gone" (their sessions stay); finally the
 *   summary is returned.
 * - Listing walks the folders itself, one folder at a time: a subfolder that cannot be read
 *   (permissions) is a `file` event with outcome "failed" naming it, and the rest is listed.
 *   Links named like session files are listed (the per-file check below refuses one that leads
 *   out of the roots, and a link loop is a per-file error); links to folders are not followed,
 *   so no loop can trap the listing.
 * - Resuming: a cancelled or killed sync leaves every file it finished tracked and the file it
 *   was importing rolled back, so the next sync skips the finished ones ("unchanged") and
 *   imports nothing twice.
 * - `only` (a watcher's changed paths) syncs just those files, present or deleted; a changed
 *   opencode message or part file stands for its session file.
 * - Every file is read only when its real path lies inside `roots` (real paths; default: the
 *   folders), checked each time it is synced (sync-file.ts): a link out of them is "failed".
 * - `signal` aborts the file being synced (an import rolls back; an append is committed batch
 *   by batch, each whole) and stops before the next file; the abort's reason is thrown.
 */
import type { Dirent } from "node:fs";
import { readdir, realpath, stat } from "node:fs/promises";
import path from "node:path";
import { type ImportProgress, listTrackedFiles } from "@/lib/db";
import { notifySessionListed } from "@/lib/runs";
import type { FileOutcome } from "@/lib/types/sync-events";
import { isStorageSessionFile, storageSessionOf } from "./opencode-storage";
import { errorText } from "@/lib/text/error-text";
import { fileSystemProblem } from "./file-problems";
import { syncFile } from "./sync-file";

export type SyncEvent =
  | { type: "start"; files: number; bytes: number; folders: string[] }
  | { type: "progress"; file: string; index: number; bytes: number; totalBytes?: number; entries: number }
  | { type: "file"; file: string; index: number; bytes: number; outcome: FileOutcome };

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

/** Gemini CLI's chat recordings are `session-*.json`; other JSON files are no sessions (but opencode's, below). */
const GEMINI_JSON = /^session-.*\.json$/;

/** A folder the listing could not read, and why. */
export interface ListingProblem {
  path: string;
  message: string;
}

function isSessionName(name: string): boolean {
  return name.endsWith(".jsonl") || GEMINI_JSON.test(name);
}

/** Session files below `folder` (sorted: a session file before its subagents folder), and the subfolders that could not be read. */
export async function listSessionFiles(folder: string): Promise<{ files: string[]; problems: ListingProblem[] }> {
  const files: string[] = [];
  const problems: ListingProblem[] = [];
  const walk = async (dir: string): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await readdir(/*turbopackIgnore: true*/ dir, { withFileTypes: true });
    } catch (error) {
      problems.push({ path: dir, message: `${dir}: this folder cannot be listed: ${fileSystemProblem(error) ?? errorText(error)}` });
      return;
    }
    for (const e of entries) {
      const file = path.join(dir, e.name);
      if (e.isDirectory()) await walk(file);
      else if (!e.isFile() && !e.isSymbolicLink()) continue;
      else if (isSessionName(e.name) || (e.name.endsWith(".json") && (await isStorageSessionFile(file)))) files.push(file);
    }
  };
  await walk(folder);
  return { files: files.sort(), problems };
}

/** Every session file below `folder`, sorted (a session file before its subagents folder). */
export async function sessionFiles(folder: string): Promise<string[]> {
  return (await listSessionFiles(folder)).files;
}

/** A file's size now (0 when it cannot be read: the sync reports why). */
async function sizeOf(file: string): Promise<number> {
  return stat(/*turbopackIgnore: true*/ file).then((s) => (s.isFile() ? s.size : 0), () => 0);
}

/** The session file a watcher's changed path stands for, or null when it is none. */
async function changedSessionFile(file: string): Promise<string | null> {
  const name = path.basename(file);
  if (isSessionName(name)) return file;
  return name.endsWith(".json") ? storageSessionOf(file) : null;
}

function emptyCounts(): SyncSummary["counts"] {
  return { imported: 0, appended: 0, unchanged: 0, rewritten: 0, waiting: 0, gone: 0, failed: 0 };
}

export async function syncFolders(
  folders: readonly string[],
  opts: { signal?: AbortSignal; settleMs?: number; onEvent?: (e: SyncEvent) => void; only?: ReadonlySet<string>; roots?: readonly string[] } = {},
): Promise<SyncSummary> {
  const real: string[] = [];
  for (const f of folders) real.push(await realFolder(f));
  const roots = opts.roots ?? real;
  const files = new Set<string>();
  const problems: ListingProblem[] = [];
  if (opts.only) {
    // Named files (a watcher's changes), present or deleted, inside the folders.
    for (const changed of [...opts.only].sort()) {
      const file = await changedSessionFile(changed);
      if (file && real.some((f) => file.startsWith(`${f}${path.sep}`))) files.add(file);
    }
  } else {
    for (const f of real) {
      const listed = await listSessionFiles(f);
      for (const file of listed.files) files.add(file);
      problems.push(...listed.problems);
    }
  }
  const list = [...files];
  const sizes = await Promise.all(list.map(sizeOf));
  opts.onEvent?.({ type: "start", files: list.length, bytes: sizes.reduce((a, b) => a + b, 0), folders: real });
  const summary: SyncSummary = { folders: real, files: [], counts: emptyCounts() };
  const record = (file: string, index: number, bytes: number, outcome: FileOutcome) => {
    summary.files.push({ file, outcome });
    summary.counts[outcome.kind] += 1;
    // A new session has no commit to announce it: the session lists are told here (appends commit, and notify).
    if (outcome.kind === "imported" || outcome.kind === "rewritten") void notifySessionListed(outcome.sessionId);
    opts.onEvent?.({ type: "file", file, index, bytes, outcome });
  };
  for (const p of problems) record(p.path, list.length, 0, { kind: "failed", message: p.message });
  const fileOpts = { roots, ...(opts.signal ? { signal: opts.signal } : {}), ...(opts.settleMs !== undefined ? { settleMs: opts.settleMs } : {}) };
  for (const [index, file] of list.entries()) {
    opts.signal?.throwIfAborted();
    const onProgress = (p: ImportProgress) => opts.onEvent?.({ type: "progress", file, index, bytes: p.bytes, entries: p.entries, ...(p.totalBytes ? { totalBytes: p.totalBytes } : {}) });
    record(file, index, sizes[index] ?? 0, await syncFile(file, { ...fileOpts, onProgress }));
  }
  if (!opts.only) {
    for (const folder of real) {
      for (const t of await listTrackedFiles(folder)) {
        if (!files.has(t.path)) record(t.path, list.length, 0, await syncFile(t.path, fileOpts));
      }
    }
  }
  return summary;
}

function heldNote(o: { held?: true }): string {
  return o.held ? "; its last response is still being written and follows on a later sync" : "";
}

/** One line about a file's outcome, for the CLI and the page; beside `file`'s path, an error does not name it again. */
export function describeOutcome(o: FileOutcome, file?: string): string {
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
      return `error: ${file && o.message.startsWith(`${file}: `) ? o.message.slice(file.length + 2) : o.message}`;
  }
}
