import "server-only";
/**
 * Syncing ONE session file of a folder with Arbor (the rules of docs/formats.md "Sync").
 *
 * - Unchanged size and mtime: nothing is read ("unchanged").
 * - A file not tracked yet is imported with the one import function (importSession), given only
 *   its whole lines ("imported"; a line cut at the end is taken on a later sync). A file whose
 *   session is already in Arbor (dropped in before) is adopted when the stored original is the
 *   start of the file, else imported as a copy.
 * - A tracked file whose imported bytes are still its start (same sha256) gets only its new
 *   entries appended (append.ts: "appended", or "unchanged" when only a cut tail grew).
 * - A tracked file that is shorter, or whose start changed, was rewritten: it is imported again
 *   as a new version (a new session titled "… (version N)"); the earlier session stays
 *   ("rewritten"). So is a file whose last response, stored while still being written, changed.
 * - A response the file ends with that the mapper could only close at the end of the file (a
 *   Claude Code response whose next record has not come, a Codex response before its
 *   token_count) is left for a later sync while the file changed less than `settleMs` ago (the
 *   agent is probably still writing it): stored now, it could change, and entries never do.
 *   The outcome then says `held`; such a file is always read again on the next sync.
 * - A tracked file that is gone is reported ("gone"); its sessions stay in Arbor.
 * - A Gemini CLI recording or an opencode storage session is one document, rewritten rather than
 *   appended: document-sync.ts syncs it whole, by the same rules.
 * - Confinement: with `roots`, the file's real path (symlinks resolved) must lie inside one of
 *   them, checked on every sync of the file, not only when a folder is listed (a link may appear,
 *   or replace a tracked file, at any time); the file is then read by that checked real path. A
 *   link out of the roots, or one that leads nowhere, is "failed" with the same words either way
 *   (they do not tell whether its target exists), and nothing is read.
 * Any other problem is "failed" with the import's message; the other files still sync.
 */
import { createReadStream } from "node:fs";
import { lstat, realpath, stat } from "node:fs/promises";
import path from "node:path";
import {
  extendStoredSource,
  findSessionMeta,
  findSessionSource,
  findTrackedFile,
  ImportError,
  type ImportProgress,
  importSession,
  isLiveSession,
  pgErrorOf,
  renameSession,
  SessionExistsError,
  saveTrackedFile,
  storedSourcePrefixSha256,
  type TrackedFile,
} from "@/lib/db";
import { FormatError } from "@/lib/formats/types";
import { isInside } from "@/lib/tools/folder-in-roots";
import type { FileOutcome } from "@/lib/types/sync-events";
import { appendNewEntries } from "./append";
import { documentKindOf, syncDocument } from "./document-sync";
import { type Remapped, remapFile, withoutOpenResponse } from "./remap";
import { detectFileFormat, lastNewlineOffset, sha256Prefix } from "./whole-lines";
import { errorText } from "@/lib/text/error-text";
import { withFileLock } from "@/lib/runs";
import { fileSystemProblem } from "./file-problems";
import { sameStat } from "./file-stat";

/** Default quiet time before a file's last, open response is taken. */
export const DEFAULT_SETTLE_MS = 5000;

export interface SyncFileOptions {
  signal?: AbortSignal;
  /** A file changed less than this long ago keeps its open last response for later (default DEFAULT_SETTLE_MS). */
  settleMs?: number;
  onProgress?: (p: ImportProgress) => void;
  /** Real paths of the folders the file must really lie in (see the header); unset: not checked. */
  roots?: readonly string[];
  /**
   * The file's tracked row as the caller's listing read it (null: none), so it is not read again
   * before the lock; unset: read here. What is written is decided on the row read inside the lock.
   */
  listed?: TrackedFile | null;
}

class OutsideRoots extends Error {}

/**
 * The path to read `file` by: its real path, inside `roots`; null when there is no such file
 * (and it is no link). Throws OutsideRoots for a link out of the roots or to nowhere.
 */
async function confinedPath(file: string, roots: readonly string[] | undefined): Promise<string | null> {
  let real: string;
  try {
    real = roots ? await realpath(file) : file;
  } catch (error) {
    if (!isMissing(error)) throw error;
    if (await lstat(file).then((s) => s.isSymbolicLink(), () => false)) throw new OutsideRoots();
    return null;
  }
  if (roots && !roots.some((root) => isInside(root, real))) throw new OutsideRoots();
  return real;
}

/** mtime stored for a file whose open response was held back: never equal, so it is read again. */
const READ_AGAIN = -1;

function fresh(st: { mtimeMs: number }, opts: SyncFileOptions): boolean {
  return Date.now() - st.mtimeMs < (opts.settleMs ?? DEFAULT_SETTLE_MS);
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException)?.code === "ENOENT";
}

/** A synced file: `file` is tracked by its path in the folder, and read by `read` (its checked real path). */
interface Source {
  file: string;
  read: string;
}

/** Imports the file's whole lines as a new session (version 1) or a new version of one. */
async function importFile(
  { file, read }: Source,
  st: { size: number; mtimeMs: number },
  opts: SyncFileOptions & { version: number; asCopy: boolean },
): Promise<{ tracked: TrackedFile; entries: number; records: number; held: boolean } | { waiting: string }> {
  const prefix = await lastNewlineOffset(read, st.size);
  if (prefix === 0) return { waiting: st.size === 0 ? "the file is empty" : "no whole line yet" };
  // What no later line can change: every pi entry; for other formats, what the mapper's `push`
  // gave (the import counts it). Only a file written within `settleMs` is mapped first, to find
  // where a response it ends with begins: that response waits (see the header). A settled file
  // is mapped once, by the import.
  let cut = prefix;
  let settled: number | undefined;
  if (fresh(st, opts)) {
    const format = await detectFileFormat(read, prefix);
    if (format !== null && format !== "pi") {
      const r = await remapFile({ file: read, format, size: prefix, checkBytes: 0, settled: Number.MAX_SAFE_INTEGER, ...(opts.signal ? { signal: opts.signal } : {}) });
      settled = r.settled;
      if (r.open) {
        cut = r.open.start;
        settled = r.open.settled;
      }
    }
  }
  if (cut === 0) return { waiting: "its first response is still being written" };
  const result = await importSession({
    source: createReadStream(read, { start: 0, end: cut - 1, highWaterMark: 1024 * 1024 }),
    fileName: path.basename(file),
    totalBytes: cut,
    asCopy: opts.asCopy,
    ...(opts.signal ? { signal: opts.signal } : {}),
    ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
  });
  if (opts.version > 1) {
    const base = result.title?.replace(/ \(copy\)$/, "") ?? path.basename(file);
    await renameSession({ id: result.sessionId, title: `${base} (version ${opts.version})` });
  }
  // The kept original's sha256, as the import stored it: the check of the next sync's append.
  const sha256 = result.sourceSha256 ?? (await findSessionSource({ sessionId: result.sessionId }))?.sha256;
  const held = cut < prefix;
  const tracked: TrackedFile = {
    path: file,
    sessionId: result.sessionId,
    format: result.format,
    size: st.size,
    mtimeMs: held ? READ_AGAIN : st.mtimeMs,
    statDigest: null,
    importedBytes: cut,
    prefixSha256: sha256 ?? "",
    settledEntries: result.format === "pi" ? result.entryCount : (settled ?? result.settledEntries),
    syncedLeafId: result.leafId,
    version: opts.version,
  };
  await saveTrackedFile(tracked);
  return { tracked, entries: result.entryCount, records: result.records, held };
}

/** A tracked file: append its new entries, or import it again when it was rewritten. */
async function resync(source: Source, st: { size: number; mtimeMs: number }, tracked: TrackedFile, opts: SyncFileOptions): Promise<FileOutcome> {
  const file = source.read;
  const again = async (why: string): Promise<FileOutcome> => {
    const version = tracked.version + 1;
    const r = await importFile(source, st, { ...opts, version, asCopy: true });
    if ("waiting" in r) return { kind: "waiting", why: r.waiting };
    return { kind: "rewritten", sessionId: r.tracked.sessionId, previousSessionId: tracked.sessionId, version, entries: r.entries, why };
  };
  if (st.size < tracked.importedBytes) return again("the file is shorter than what was imported");
  let remapped: Remapped;
  try {
    remapped = await remapFile({
      file,
      format: tracked.format,
      size: st.size,
      checkBytes: tracked.importedBytes,
      settled: tracked.settledEntries,
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
  } catch (error) {
    // A pi version 1 file's entries get their ids on import (session-engine.md §1.7): new lines
    // cannot be matched to what is stored, so the file is imported again.
    if (tracked.format === "pi" && error instanceof FormatError && error.field === "id") return again("its entries have no ids (a pi version 1 file)");
    throw error;
  }
  if (remapped.checkSha256 !== tracked.prefixSha256) return again("the lines imported before have changed");
  const held = remapped.open !== null && remapped.open.start > tracked.importedBytes && fresh(st, opts);
  if (held && remapped.open) remapped = await withoutOpenResponse(file, { ...remapped, open: remapped.open });
  const mtimeMs = held ? READ_AGAIN : st.mtimeMs;
  if (remapped.prefixBytes === tracked.importedBytes) {
    await saveTrackedFile({ ...tracked, size: st.size, mtimeMs });
    return { kind: "unchanged", sessionId: tracked.sessionId };
  }
  const outcome = await appendNewEntries(tracked, remapped, opts.signal);
  if (outcome.kind === "changed") return again(`entry ${outcome.entryId} changed after it was imported (it was still being written)`);
  if (await extendsStoredOriginal(file, tracked)) {
    await extendStoredSource({ sessionId: tracked.sessionId, file, bytes: remapped.prefixBytes, sha256: remapped.prefixSha256, records: remapped.records });
  }
  await saveTrackedFile({
    ...tracked,
    size: st.size,
    mtimeMs,
    importedBytes: remapped.prefixBytes,
    prefixSha256: remapped.prefixSha256,
    settledEntries: remapped.settled,
    syncedLeafId: outcome.leafId,
  });
  return { kind: "appended", sessionId: tracked.sessionId, added: outcome.added, ...(held ? { held: true as const } : {}) };
}

/**
 * A file whose session is already in Arbor (imported through the page, the API, the CLI or
 * another synced file) is tracked as that session when their bytes agree: the stored original
 * is the start of the file (the file may have grown), or the file's whole lines are the start of
 * the stored original (a copy taken earlier). Either way no second session is made.
 */
async function adoption({ file, read }: Source, st: { size: number; mtimeMs: number }, sessionId: string): Promise<TrackedFile | null> {
  const source = await findSessionSource({ sessionId });
  const meta = await findSessionMeta({ id: sessionId });
  if (!source || !isLiveSession(meta) || source.bytes === 0) return null;
  // settled 0: the next step compares every mapped entry with the stored one, by id.
  const track = (bytes: number, sha256: string): TrackedFile => ({ path: file, sessionId, format: source.format, size: bytes, mtimeMs: 0, statDigest: null, importedBytes: bytes, prefixSha256: sha256, settledEntries: 0, syncedLeafId: meta.leafId, version: 1 });
  if (source.bytes <= st.size) {
    const probe = await remapFile({ file: read, format: source.format, size: source.bytes, checkBytes: source.bytes, settled: 0 });
    return probe.checkSha256 === source.sha256 ? track(source.bytes, source.sha256) : null;
  }
  const whole = await lastNewlineOffset(read, st.size);
  if (whole === 0) return null;
  const mine = await sha256Prefix(read, whole);
  return mine === (await storedSourcePrefixSha256({ sessionId, bytes: whole })) ? track(whole, mine) : null;
}

/** Whether the session's stored original is the start of `file` (then the file's new bytes extend it). */
async function extendsStoredOriginal(file: string, tracked: TrackedFile): Promise<boolean> {
  const source = await findSessionSource({ sessionId: tracked.sessionId });
  if (!source) return false;
  if (source.bytes === tracked.importedBytes) return source.sha256 === tracked.prefixSha256;
  return (await sha256Prefix(file, source.bytes)) === source.sha256;
}

export async function syncFile(file: string, opts: SyncFileOptions = {}): Promise<FileOutcome> {
  return (await syncFileRaced(file, opts)).outcome;
}

/**
 * syncFile, and whether its failure may have come from another file synced at the same time
 * (`raced`: the same session written by both, a deadlock; sync-folders.ts then syncs it again alone).
 */
export async function syncFileRaced(file: string, opts: SyncFileOptions = {}): Promise<{ outcome: FileOutcome; raced: boolean }> {
  try {
    return { outcome: await syncAny(file, opts), raced: false };
  } catch (error) {
    opts.signal?.throwIfAborted();
    return { outcome: failure(file, error), raced: isWriteRace(error) };
  }
}

/** A write that lost a race with another transaction: a session row already there, a deadlock, a unique key. */
function isWriteRace(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++) {
    if (e instanceof SessionExistsError) return true;
    const code = pgErrorOf(e).code;
    if (code === "23505" || code === "40P01" || code === "40001") return true;
  }
  return false;
}

async function syncAny(file: string, opts: SyncFileOptions): Promise<FileOutcome> {
  const tracked = opts.listed !== undefined ? opts.listed : await findTrackedFile(file);
  const read = await confinedPath(file, opts.roots);
  let st: { size: number; mtimeMs: number };
  try {
    if (read === null) throw Object.assign(new Error("the file does not exist"), { code: "ENOENT" });
    const s = await stat(/*turbopackIgnore: true*/ read);
    if (s.isDirectory()) throw Object.assign(new Error("is a folder"), { code: "EISDIR" });
    st = { size: s.size, mtimeMs: s.mtimeMs };
  } catch (error) {
    if (isMissing(error) && tracked) return { kind: "gone", sessionId: tracked.sessionId };
    throw error;
  }
  // Gemini CLI recordings and opencode storage sessions are documents, synced whole (document-sync.ts).
  const document = await documentKindOf(read, tracked);
  const settleMs = opts.settleMs ?? DEFAULT_SETTLE_MS;
  if (document) return await withFileLock(file, async () => syncDocument(read, document, await findTrackedFile(file), { ...opts, settleMs }), opts.signal);
  if (tracked && sameStat(tracked, st)) return { kind: "unchanged", sessionId: tracked.sessionId };
  // Anything to write: one sync of this file at a time, across processes (lib/runs/file-lock.ts);
  // what another sync did meanwhile is read again inside the lock.
  return await withFileLock(file, () => syncChanged({ file, read }, st, opts), opts.signal);
}

async function syncChanged(source: Source, st: { size: number; mtimeMs: number }, opts: SyncFileOptions): Promise<FileOutcome> {
  const tracked = await findTrackedFile(source.file);
  if (tracked && sameStat(tracked, st)) return { kind: "unchanged", sessionId: tracked.sessionId };
  if (tracked) return await resync(source, st, tracked, opts);
  try {
    const r = await importFile(source, st, { ...opts, version: 1, asCopy: false });
    if ("waiting" in r) return { kind: "waiting", why: r.waiting };
    return { kind: "imported", sessionId: r.tracked.sessionId, format: r.tracked.format, entries: r.entries, records: r.records, ...(r.held ? { held: true as const } : {}) };
  } catch (error) {
    if (!(error instanceof ImportError && error.code === "exists" && error.existingSessionId)) throw error;
    const adopted = await adoption(source, st, error.existingSessionId);
    if (!adopted) {
      const r = await importFile(source, st, { ...opts, version: 1, asCopy: true });
      if ("waiting" in r) return { kind: "waiting", why: r.waiting };
      return { kind: "imported", sessionId: r.tracked.sessionId, format: r.tracked.format, entries: r.entries, records: r.records, ...(r.held ? { held: true as const } : {}) };
    }
    const out = await resync(source, st, adopted, opts);
    return out.kind === "appended" || out.kind === "unchanged" ? { kind: "imported", sessionId: adopted.sessionId, format: adopted.format, entries: 0, records: 0, adopted: true } : out;
  }
}

/** A file's failure as the per-file outcome the sync reports; the other files go on. */
function failure(file: string, error: unknown): FileOutcome {
  if (error instanceof OutsideRoots) return { kind: "failed", message: `${path.basename(file)}: refused: a link to a file outside the synced folders: not read` };
  if (error instanceof FormatError) return { kind: "failed", message: `${path.basename(file)}:${error.line}: ${error.what}${error.field ? ` (field ${error.field})` : ""}` };
  if (error instanceof ImportError) return { kind: "failed", message: error.message };
  const fsWhat = fileSystemProblem(error);
  if (fsWhat) return { kind: "failed", message: `${file}: ${fsWhat}` };
  return { kind: "failed", message: `${path.basename(file)}: ${errorText(error)}` };
}
