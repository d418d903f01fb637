import "server-only";
/**
 * Syncing whole folders: every session file below each folder (recursively, subagent files
 * included: `*.jsonl`, Gemini CLI's `session-*.json`, and opencode's storage sessions
 * `session/<projectID>/<sessionID>.json`), each by sync-file.ts, two files at a time (a file of
 * ALONE_FROM_BYTES or more alone; file-lanes.ts), with progress and cancellation as for imports.
 *
 * Contract:
 * - Folders are real paths (symlinks resolved) so a file is tracked under one path; a folder
 *   that does not exist or is not a folder fails at once with a message naming it.
 * - Events, in order: `start` (the files found and their bytes, for overall progress), per file
 *   in the listing's order `progress`* (the import's bytes and entries; of a file synced beside
 *   an earlier one, the latest is passed on once that one is done) then `file` (its outcome and
 *   size), and tracked
 *   files no longer on disk as `file` with outcome "gone" (their sessions stay); finally the
 *   summary is returned.
 * - Listing walks the folders itself and takes every session file's stat (folder-scan.ts): a
 *   subfolder that cannot be read (permissions) is a `file` event with outcome "failed" naming
 *   it, and the rest is listed. Links named like session files are listed (the per-file check
 *   below refuses one that leads out of the roots, and a link loop is a per-file error); links to
 *   folders are not followed, so no loop can trap the listing.
 * - Nothing changed: the tracked rows below each folder are read in one query, and a plain
 *   file whose stat is the one stored when it was last read (file-stat.ts; an opencode session:
 *   its files' fingerprint) is "unchanged" without being opened, locked or queried again. Every
 *   other file (new, changed, a link, no stat) is synced by sync-file.ts.
 * - Resuming: a cancelled or killed sync leaves every file it finished tracked and the files it
 *   was importing (two at most) rolled back, so the next sync skips the finished ones
 *   ("unchanged") and imports nothing twice.
 * - Two files synced at once that write the same session (a copy of a file, a sidechain both
 *   hold): the one that loses the race fails inside its transaction, which rolls back, and is
 *   synced again alone once the other is done, as it would have been one file after the other.
 * - `only` (a watcher's changed paths) syncs just those files, present or deleted; a changed
 *   opencode message or part file stands for its session file.
 * - Every file is read only when its real path lies inside `roots` (real paths; default: the
 *   folders), checked each time it is synced (sync-file.ts): a link out of them is "failed".
 * - `signal` aborts the files being synced (an import rolls back; an append is committed batch
 *   by batch, each whole) and stops before the next file; the abort's reason is thrown once
 *   both have stopped.
 */
import { realpath, stat } from "node:fs/promises";
import path from "node:path";
import { type ImportProgress, listTrackedFiles, type TrackedFile } from "@/lib/db";
import { notifySessionListed } from "@/lib/runs";
import { isInside } from "@/lib/tools/folder-in-roots";
import type { FileOutcome } from "@/lib/types/sync-events";
import { sameStat } from "./file-stat";
import { isSessionName, type ListingProblem, type ScannedFile, scanFolder } from "./folder-scan";
import { storageSessionOf } from "./opencode-storage";
import { FileLanes, InOrder } from "./file-lanes";
import { syncFile, syncFileRaced } from "./sync-file";

/** Files synced at once (file-lanes.ts). */
const LANES = 2;
/** A file this large is synced with no other beside it: two imports' memory at once stays small. */
const ALONE_FROM_BYTES = 8 * 1024 * 1024;

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

/** The files to sync and what is known of them: from a scan of the folders, or a watcher's changed paths. */
interface Listing {
  files: string[];
  sizes: number[];
  problems: ListingProblem[];
  /** Per listed file found by the scan: its stat, and whether its folder lies inside the roots. */
  scanned: Map<string, ScannedFile & { confined: boolean }>;
  /** The tracked files below the folders (one query per folder). */
  known: Map<string, TrackedFile>;
  /** `known` holds every tracked row of the listed files (a scan's listing, not a watcher's). */
  complete: boolean;
}

async function listChanged(only: ReadonlySet<string>, real: readonly string[]): Promise<Listing> {
  const files = new Set<string>();
  // Named files (a watcher's changes), present or deleted, inside the folders.
  for (const changed of [...only].sort()) {
    const file = await changedSessionFile(changed);
    if (file && real.some((f) => file.startsWith(`${f}${path.sep}`))) files.add(file);
  }
  const list = [...files];
  return { files: list, sizes: await Promise.all(list.map(sizeOf)), problems: [], scanned: new Map(), known: new Map(), complete: false };
}

async function listFolders(real: readonly string[], roots: readonly string[], signal?: AbortSignal): Promise<Listing> {
  const scanned: Listing["scanned"] = new Map();
  const problems: ListingProblem[] = [];
  const known: Listing["known"] = new Map();
  for (const folder of real) {
    const scan = await scanFolder(folder, signal ? { signal } : {});
    const confined = roots.some((root) => isInside(root, folder));
    for (const f of scan.files) if (!scanned.has(f.path)) scanned.set(f.path, { ...f, confined });
    problems.push(...scan.problems);
    for (const t of await listTrackedFiles(folder)) known.set(t.path, t);
  }
  const files = [...scanned.keys()];
  return { files, sizes: files.map((f) => scanned.get(f)?.stat?.size ?? 0), problems, scanned, known, complete: true };
}

/**
 * The tracked row of a file that is as it was when last read (same stat; file-stat.ts), so
 * nothing of it is read; null when the per-file sync must look (changed, new, a link, outside
 * the roots, or no stat).
 */
function asStored(listing: Listing, file: string): TrackedFile | null {
  const scan = listing.scanned.get(file);
  const tracked = listing.known.get(file);
  if (!scan?.stat || !tracked || scan.link || !scan.confined) return null;
  if ((tracked.format === "opencode") !== scan.storage) return null;
  return sameStat(tracked, scan.stat) ? tracked : null;
}

export async function syncFolders(
  folders: readonly string[],
  opts: { signal?: AbortSignal; settleMs?: number; onEvent?: (e: SyncEvent) => void; only?: ReadonlySet<string>; roots?: readonly string[] } = {},
): Promise<SyncSummary> {
  const real: string[] = [];
  for (const f of folders) real.push(await realFolder(f));
  const roots = opts.roots ?? real;
  const listing = opts.only ? await listChanged(opts.only, real) : await listFolders(real, roots, opts.signal);
  const { files: list, sizes } = listing;
  opts.onEvent?.({ type: "start", files: list.length, bytes: sizes.reduce((a, b) => a + b, 0), folders: real });
  const summary: SyncSummary = { folders: real, files: [], counts: emptyCounts() };
  /** The session lists' notifications, awaited before the sync returns (each catches its own failure). */
  const notified: Promise<void>[] = [];
  const pass = (e: SyncEvent) => {
    if (e.type === "file") {
      const { file, outcome } = e;
      summary.files.push({ file, outcome });
      summary.counts[outcome.kind] += 1;
      // A new session has no commit to announce it: the session lists are told here (appends commit, and notify).
      if (outcome.kind === "imported" || outcome.kind === "rewritten") notified.push(notifySessionListed(outcome.sessionId));
    }
    opts.onEvent?.(e);
  };
  for (const p of listing.problems) pass({ type: "file", file: p.path, index: list.length, bytes: 0, outcome: { kind: "failed", message: p.message } });
  const fileOpts = { roots, ...(opts.signal ? { signal: opts.signal } : {}), ...(opts.settleMs !== undefined ? { settleMs: opts.settleMs } : {}) };
  // Files are synced two at a time (file-lanes.ts), their events passed on in file order.
  const order = new InOrder<SyncEvent>(pass, (e) => e.type === "progress");
  const lanes = new FileLanes(LANES);
  const record = (file: string, index: number, outcome: FileOutcome) => {
    order.emit(index, { type: "file", file, index, bytes: sizes[index] ?? 0, outcome });
    order.done(index);
  };
  try {
    for (const [index, file] of list.entries()) {
      opts.signal?.throwIfAborted();
      const stored = asStored(listing, file);
      if (stored) {
        record(file, index, { kind: "unchanged", sessionId: stored.sessionId });
        continue;
      }
      const onProgress = (p: ImportProgress) =>
        order.emit(index, { type: "progress", file, index, bytes: p.bytes, entries: p.entries, ...(p.totalBytes ? { totalBytes: p.totalBytes } : {}) });
      const one = { ...fileOpts, onProgress, ...(listing.complete ? { listed: listing.known.get(file) ?? null } : {}) };
      await lanes.start(
        (sizes[index] ?? 0) >= ALONE_FROM_BYTES,
        async (ranBeside) => {
          const { outcome, raced } = await syncFileRaced(file, one);
          if (raced && ranBeside()) return false;
          record(file, index, outcome);
          return true;
        },
        async () => record(file, index, await syncFile(file, one)),
      );
    }
    await lanes.drain();
  } catch (error) {
    await lanes.settle();
    // Files that finished beside the one stopped are stored: their events still say so.
    order.flushDone();
    await Promise.all(notified);
    throw error;
  }
  // Tracked files the scan did not find: deleted ("gone"), or no longer a file (the per-file sync says what).
  for (const t of listing.known.values()) {
    if (!listing.scanned.has(t.path)) pass({ type: "file", file: t.path, index: list.length, bytes: 0, outcome: await syncFile(t.path, fileOpts) });
  }
  await Promise.all(notified);
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
