import "server-only";
/**
 * Syncing a session that is ONE JSON document (docs/formats.md "Sync"): a Gemini CLI recording
 * (`session-*.json`, which Gemini CLI rewrites whole as the session grows, or its 0.39+
 * `session-*.jsonl` records, folded), or an opencode session of the storage folder (assembled
 * from its files: opencode-storage.ts).
 *
 * Rules (the JSONL rules of sync-file.ts, for a file that is rewritten rather than appended):
 * - Same size and mtime (for opencode: of all the session's files, and their digest): not read
 *   (file-stat.ts).
 * - New: imported with the one import function from the document's bytes, kept as the original.
 *   While it changed less than `settleMs` ago its last message is held back (`held`), as a JSONL
 *   file's open response is: it may still be being written, and entries never change.
 * - Changed: mapped again whole. When every entry stored from it before maps again the same
 *   (same id, same content: append.ts compares them) the new document extends the old one, and
 *   only its new entries are appended through the store's commit; the stored original is then
 *   replaced by the new bytes ("Download original" gives the document as synced). When an entry
 *   stored before changed or is gone (a rewind, an edit) the document is imported again as a new
 *   version, the earlier session kept — no entry is ever duplicated or changed.
 * - A document that does not parse: "waiting" while it changed moments ago (being written),
 *   else "failed" with its line and column.
 */
import { createHash } from "node:crypto";
import { open, readFile, stat } from "node:fs/promises";
import path from "node:path";
import {
  findSessionMeta,
  findStoredEntries,
  ImportError,
  type ImportProgress,
  importSession,
  isLiveSession,
  renameSession,
  replaceStoredSource,
  saveTrackedFile,
  type TrackedFile,
} from "@/lib/db";
import { documentFormatOf, locateJsonError, MAX_DOCUMENT_BYTES, mapDocument, messageCount } from "@/lib/formats/document";
import { GeminiRecordFolder, isGeminiMetadataRecord } from "@/lib/formats/gemini-records";
import { type DocumentFormatId, FormatError, type JsonObject } from "@/lib/formats/types";
import { parseJsonlLine } from "@/lib/session/file/jsonl";
import { appendNewEntries } from "./append";
import { isStorageSessionFile, readStorageSession, StorageFileError, storageFingerprint } from "./opencode-storage";
import type { Remapped } from "./remap";
import { type FileStat, sameStat } from "./file-stat";
import type { FileOutcome } from "@/lib/types/sync-events";

export type DocumentKind = "gemini" | "opencode-storage";

/** mtime stored for a document whose last message was held back: never equal, so it is read again. */
const READ_AGAIN = -1;

/** Whether `file` is synced as a document, and which kind (`tracked`: how it was synced before). */
export async function documentKindOf(file: string, tracked: TrackedFile | null): Promise<DocumentKind | null> {
  if (tracked) return tracked.format === "gemini" ? "gemini" : tracked.format === "opencode" ? "opencode-storage" : null;
  if (file.endsWith(".json")) {
    if (await isStorageSessionFile(file)) return "opencode-storage";
    return /^session-.*\.json$/.test(path.basename(file)) ? "gemini" : null;
  }
  if (!file.endsWith(".jsonl")) return null;
  const { value } = parseJsonlLine(await firstLine(file), 1);
  return isGeminiMetadataRecord(value) ? "gemini" : null;
}

/** The file's first line, if it ends within the first 64 KB (a Gemini CLI metadata record does), else "". */
async function firstLine(file: string): Promise<string> {
  const handle = await open(/*turbopackIgnore: true*/ file, "r").catch(() => null);
  if (!handle) return "";
  try {
    const head = Buffer.alloc(64 * 1024);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    const end = head.subarray(0, bytesRead).indexOf(0x0a);
    return end === -1 ? "" : head.toString("utf8", 0, end);
  } finally {
    await handle.close();
  }
}

interface ReadDocument {
  format: DocumentFormatId;
  bytes: Buffer;
  /** Records of the file, as the import counts them: messages, or for JSONL its records. */
  records: number;
  fileName: string;
  st: FileStat;
}

/** What stat says; for opencode, of all the session's files (with their digest). */
export async function documentStat(file: string, kind: DocumentKind): Promise<FileStat> {
  if (kind === "opencode-storage") return storageFingerprint(file);
  const s = await stat(/*turbopackIgnore: true*/ file);
  return { size: s.size, mtimeMs: s.mtimeMs };
}

/** The document and, for a Gemini file, its text parsed: throws DocumentSyntaxError when it does not parse. */
class DocumentSyntaxError extends Error {}

async function readDoc(file: string, kind: DocumentKind, st: FileStat): Promise<ReadDocument & { value: JsonObject }> {
  if (kind === "opencode-storage") {
    try {
      const { document, bytes } = await readStorageSession(file);
      return { format: "opencode", bytes, records: messageCount(document), fileName: path.basename(file), st, value: document };
    } catch (error) {
      if (error instanceof StorageFileError) throw new DocumentSyntaxError(error.message);
      throw error;
    }
  }
  if (st.size > MAX_DOCUMENT_BYTES) throw new DocumentSyntaxError(`${path.basename(file)}: a Gemini CLI session is read whole, and this one is larger than the limit for such files`);
  const bytes = await readFile(/*turbopackIgnore: true*/ file);
  const text = bytes.toString("utf8");
  const name = path.basename(file);
  if (file.endsWith(".jsonl")) {
    const folder = new GeminiRecordFolder();
    text.split("\n").forEach((line, i) => {
      const { value } = parseJsonlLine(line, i + 1);
      if (value) folder.push(value);
    });
    return { format: "gemini", bytes, records: folder.records, fileName: name, st, value: folder.conversation() };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const at = locateJsonError(text, error);
    throw new DocumentSyntaxError(`${name}:${at.line}:${at.column}: the Gemini CLI session is not valid JSON (${at.reason})`);
  }
  if (documentFormatOf(value) !== "gemini") throw new DocumentSyntaxError(`${name}: not a Gemini CLI session (sessionId, projectHash, messages)`);
  return { format: "gemini", bytes, records: messageCount(value as JsonObject), fileName: name, st, value: value as JsonObject };
}

function sha256(bytes: Buffer): string {
  return createHash("sha256").update(bytes).digest("hex");
}

export interface DocumentSyncOptions {
  signal?: AbortSignal;
  settleMs: number;
  onProgress?: (p: ImportProgress) => void;
}

/** Imports the document as a new session (version 1) or a new version of one. */
async function importDocument(file: string, doc: ReadDocument, held: boolean, opts: DocumentSyncOptions & { version: number; asCopy: boolean }) {
  const result = await importSession({
    source: (async function* () {
      yield doc.bytes;
    })(),
    fileName: doc.fileName,
    totalBytes: doc.bytes.length,
    asCopy: opts.asCopy,
    holdLastMessage: held,
    ...(opts.signal ? { signal: opts.signal } : {}),
    ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
  });
  if (opts.version > 1) {
    const base = result.title?.replace(/ \(copy\)$/, "") ?? doc.fileName;
    await renameSession({ id: result.sessionId, title: `${base} (version ${opts.version})` });
  }
  const tracked: TrackedFile = {
    path: file,
    sessionId: result.sessionId,
    format: doc.format,
    size: doc.st.size,
    mtimeMs: held ? READ_AGAIN : doc.st.mtimeMs,
    statDigest: doc.st.digest ?? null,
    importedBytes: doc.bytes.length,
    prefixSha256: sha256(doc.bytes),
    settledEntries: result.entryCount,
    syncedLeafId: result.leafId,
    version: opts.version,
  };
  await saveTrackedFile(tracked);
  return { tracked, entries: result.entryCount, records: result.records };
}

/** How many of `ids` the session holds. */
async function storedCount(sessionId: string, ids: string[]): Promise<number> {
  return (await findStoredEntries({ sessionId, ids })).size;
}

/** Replaces the session's stored original by `bytes` (a document is rewritten whole, never appended). */
function replaceOriginal(sessionId: string, bytes: Buffer, records: number): Promise<void> {
  return replaceStoredSource({ sessionId, bytes, records });
}

type Update = { kind: "changed"; why: string } | { kind: "appended"; added: number };

/** Appends what the document holds beyond what `tracked` stored, or says why it cannot. */
async function update(tracked: TrackedFile, doc: ReadDocument & { value: JsonObject }, held: boolean, signal?: AbortSignal): Promise<Update> {
  const mapped = mapDocument(doc.format, doc.value, { holdLast: held });
  const ids = mapped.entries.map((e) => e.id);
  if ((await storedCount(tracked.sessionId, ids)) < tracked.settledEntries) return { kind: "changed", why: "messages imported before are no longer in the file" };
  const remapped: Remapped = {
    candidates: mapped.entries.map((entry) => ({ entry, at: 0 })),
    settled: mapped.entries.length,
    prefixBytes: doc.bytes.length,
    prefixSha256: sha256(doc.bytes),
    checkSha256: null,
    records: mapped.records,
    skippedLines: 0,
    open: null,
  };
  const outcome = await appendNewEntries(tracked, remapped, signal);
  if (outcome.kind === "changed") return { kind: "changed", why: `entry ${outcome.entryId} changed after it was imported` };
  await replaceOriginal(tracked.sessionId, doc.bytes, doc.records);
  await saveTrackedFile({
    ...tracked,
    size: doc.st.size,
    mtimeMs: held ? READ_AGAIN : doc.st.mtimeMs,
    statDigest: doc.st.digest ?? null,
    importedBytes: doc.bytes.length,
    prefixSha256: remapped.prefixSha256,
    settledEntries: mapped.entries.length,
    syncedLeafId: outcome.leafId,
  });
  return { kind: "appended", added: outcome.added };
}

export async function syncDocument(file: string, kind: DocumentKind, tracked: TrackedFile | null, opts: DocumentSyncOptions): Promise<FileOutcome> {
  const st = await documentStat(file, kind);
  if (tracked && sameStat(tracked, st)) return { kind: "unchanged", sessionId: tracked.sessionId };
  const fresh = Date.now() - st.mtimeMs < opts.settleMs;
  let doc: ReadDocument & { value: JsonObject };
  try {
    doc = await readDoc(file, kind, st);
  } catch (error) {
    if (!(error instanceof DocumentSyntaxError)) throw error;
    if (fresh) return { kind: "waiting", why: "the file is being written" };
    return { kind: "failed", message: error.message };
  }
  const held = fresh && messageCount(doc.value) > 0;
  if (held && messageCount(doc.value) === 1 && !tracked) return { kind: "waiting", why: "its first message is still being written" };
  try {
    if (tracked) {
      if (sha256(doc.bytes) === tracked.prefixSha256 && tracked.mtimeMs !== READ_AGAIN) {
        await saveTrackedFile({ ...tracked, size: st.size, mtimeMs: st.mtimeMs, statDigest: st.digest ?? null });
        return { kind: "unchanged", sessionId: tracked.sessionId };
      }
      return await resync(file, tracked, doc, held, opts);
    }
    try {
      const r = await importDocument(file, doc, held, { ...opts, version: 1, asCopy: false });
      return { kind: "imported", sessionId: r.tracked.sessionId, format: doc.format, entries: r.entries, records: r.records, ...(held ? { held: true as const } : {}) };
    } catch (error) {
      if (!(error instanceof ImportError && error.code === "exists" && error.existingSessionId)) throw error;
      return await adopt(file, error.existingSessionId, doc, held, opts);
    }
  } catch (error) {
    if (error instanceof FormatError) return { kind: "failed", message: `${path.basename(file)}: ${error.what}` };
    throw error;
  }
}

async function resync(file: string, tracked: TrackedFile, doc: ReadDocument & { value: JsonObject }, held: boolean, opts: DocumentSyncOptions): Promise<FileOutcome> {
  const u = await update(tracked, doc, held, opts.signal);
  if (u.kind === "appended") {
    return u.added === 0 && !held ? { kind: "unchanged", sessionId: tracked.sessionId } : { kind: "appended", sessionId: tracked.sessionId, added: u.added, ...(held ? { held: true as const } : {}) };
  }
  const version = tracked.version + 1;
  const r = await importDocument(file, doc, held, { ...opts, version, asCopy: true });
  return { kind: "rewritten", sessionId: r.tracked.sessionId, previousSessionId: tracked.sessionId, version, entries: r.entries, why: u.why };
}

/** A session dropped in before: kept in sync when the document extends what it holds, else imported as a copy. */
async function adopt(file: string, sessionId: string, doc: ReadDocument & { value: JsonObject }, held: boolean, opts: DocumentSyncOptions): Promise<FileOutcome> {
  const meta = await findSessionMeta({ id: sessionId });
  if (isLiveSession(meta)) {
    const tracked: TrackedFile = { path: file, sessionId, format: doc.format, size: -1, mtimeMs: -1, statDigest: null, importedBytes: 0, prefixSha256: "", settledEntries: 0, syncedLeafId: meta.leafId, version: 1 };
    const u = await update(tracked, doc, held, opts.signal);
    if (u.kind === "appended") return { kind: "imported", sessionId, format: doc.format, entries: 0, records: 0, adopted: true };
  }
  const r = await importDocument(file, doc, held, { ...opts, version: 1, asCopy: true });
  return { kind: "imported", sessionId: r.tracked.sessionId, format: doc.format, entries: r.entries, records: r.records, ...(held ? { held: true as const } : {}) };
}
