import "server-only";
/**
 * opencode's storage folder (`~/.local/share/opencode/storage`), read as a folder sync needs it:
 * one session per session file, assembled into the document `opencode export` prints
 * (docs/formats.md "opencode"), so it is mapped like an export.
 *
 * Layout: `session/<projectID>/<sessionID>.json` (the session's info),
 * `message/<sessionID>/<messageID>.json` (each message's info) and
 * `part/<messageID>/<partID>.json` (each part). opencode's ids sort in creation order, so
 * messages and parts are ordered by file name.
 *
 * Contract:
 * - `isStorageSessionFile(path)`: a `.json` file two levels below a `session` folder whose
 *   storage folder also has a `message` folder.
 * - `storageFingerprint(sessionFile, io?)`: total size, newest mtime and a digest (sha1 of each
 *   file's path below the storage folder, size and mtime, in order) of the session's files (its
 *   session file, message files and part files), from listings and stat only, no file read: what
 *   tells a sync that the session changed, since opencode writes a file per message and part and
 *   rewrites a part in place as it streams. A file added, deleted, renamed, grown, or rewritten
 *   (new mtime) changes the digest; a file that vanishes between listing and stat is left out.
 *   `io` lets a folder scan (folder-scan.ts) give the listings it already made and its own stat.
 * - `readStorageSession(sessionFile)`: `{ document, bytes }`, the export document and its
 *   two-space JSON (what is imported and kept as the original). A file that is not valid JSON
 *   (opencode is writing it) throws StorageFileError naming it, with line and column.
 * - `storageSessionOf(changedPath)`: the session file a changed message or part file belongs to
 *   (a watcher names those), or null.
 */
import { createHash } from "node:crypto";
import { readFile, readdir, stat } from "node:fs/promises";
import path from "node:path";
import { locateJsonError } from "@/lib/formats/document";

export class StorageFileError extends Error {
  override name = "StorageFileError";
}

/** The storage folder of a session file, when `file` is placed as one (its `message` folder not checked). */
export function storageRootOf(file: string): string | null {
  const project = path.dirname(file);
  const sessionDir = path.dirname(project);
  if (!file.endsWith(".json") || path.basename(sessionDir) !== "session") return null;
  return path.dirname(sessionDir);
}

async function isDirectory(p: string): Promise<boolean> {
  return stat(/*turbopackIgnore: true*/ p).then(
    (s) => s.isDirectory(),
    () => false,
  );
}

export async function isStorageSessionFile(file: string): Promise<boolean> {
  const root = storageRootOf(file);
  return root !== null && (await isDirectory(path.join(/*turbopackIgnore: true*/ root, "message")));
}

/** The `.json` names among a folder's names, sorted: the message or part files a storage folder holds. */
export function storageJsonNames(names: readonly string[]): string[] {
  return names.filter((n) => n.endsWith(".json")).sort();
}

/** The `.json` names of a folder, sorted; none when the folder is missing. */
async function jsonNames(dir: string): Promise<string[]> {
  return storageJsonNames(await readdir(/*turbopackIgnore: true*/ dir).catch(() => [] as string[]));
}

/** The `.json` names of a folder, sorted (none when it is missing), and a file's size and mtime (null when it cannot be had). */
export interface StorageIo {
  list(dir: string): string[] | Promise<string[]>;
  stat(file: string): { size: number; mtimeMs: number } | null | Promise<{ size: number; mtimeMs: number } | null>;
}

const asyncIo: StorageIo = {
  list: jsonNames,
  stat: (file) => stat(/*turbopackIgnore: true*/ file).then((s) => ({ size: s.size, mtimeMs: s.mtimeMs }), () => null),
};

/** The session's files: its session file, then per message its message file and part files. */
async function filesOf(sessionFile: string, io: StorageIo = asyncIo): Promise<{ messages: { file: string; parts: string[] }[] }> {
  const root = storageRootOf(sessionFile)!;
  const sessionId = path.basename(sessionFile, ".json");
  const messages = [];
  const messageDir = path.join(/*turbopackIgnore: true*/ root, "message", sessionId);
  for (const name of await io.list(messageDir)) {
    const partDir = path.join(/*turbopackIgnore: true*/ root, "part", path.basename(name, ".json"));
    messages.push({ file: path.join(/*turbopackIgnore: true*/ messageDir, name), parts: (await io.list(partDir)).map((p) => path.join(/*turbopackIgnore: true*/ partDir, p)) });
  }
  return { messages };
}

export interface StorageFingerprint {
  size: number;
  mtimeMs: number;
  digest: string;
}

export async function storageFingerprint(sessionFile: string, io: StorageIo = asyncIo): Promise<StorageFingerprint> {
  const root = storageRootOf(sessionFile)!;
  const { messages } = await filesOf(sessionFile, io);
  const hash = createHash("sha1");
  let size = 0;
  let mtimeMs = 0;
  for (const file of [sessionFile, ...messages.flatMap((m) => [m.file, ...m.parts])]) {
    const s = await io.stat(file);
    if (!s) continue;
    size += s.size;
    mtimeMs = Math.max(mtimeMs, s.mtimeMs);
    hash.update(`${path.relative(root, file)}\t${s.size}\t${s.mtimeMs}\n`);
  }
  return { size, mtimeMs, digest: hash.digest("hex") };
}

async function readJson(file: string): Promise<Record<string, unknown>> {
  const text = await readFile(/*turbopackIgnore: true*/ file, "utf8");
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch (error) {
    const at = locateJsonError(text, error);
    throw new StorageFileError(`${file}:${at.line}:${at.column}: not valid JSON (${at.reason})`);
  }
}

export async function readStorageSession(sessionFile: string): Promise<{ document: Record<string, unknown>; bytes: Buffer }> {
  const info = await readJson(sessionFile);
  const { messages: files } = await filesOf(sessionFile);
  const messages = [];
  for (const m of files) {
    const parts = [];
    for (const p of m.parts) parts.push(await readJson(p));
    messages.push({ info: await readJson(m.file), parts });
  }
  const document = { info, messages };
  return { document, bytes: Buffer.from(JSON.stringify(document, null, 2)) };
}

/** The session file a changed storage file belongs to (itself for a session file), or null. */
export async function storageSessionOf(changed: string): Promise<string | null> {
  if (await isStorageSessionFile(changed)) return changed;
  const dir = path.dirname(changed);
  const kind = path.basename(path.dirname(dir));
  if (!changed.endsWith(".json") || (kind !== "message" && kind !== "part")) return null;
  const root = path.dirname(path.dirname(dir));
  let sessionId = path.basename(dir);
  if (kind === "part") {
    const part = await readJson(changed).catch(() => null);
    if (typeof part?.sessionID !== "string") return null;
    sessionId = part.sessionID;
  }
  for (const project of await readdir(/*turbopackIgnore: true*/ path.join(/*turbopackIgnore: true*/ root, "session")).catch(() => [] as string[])) {
    const file = path.join(/*turbopackIgnore: true*/ root, "session", project, `${sessionId}.json`);
    if (await stat(/*turbopackIgnore: true*/ file).then(() => true, () => false)) return file;
  }
  return null;
}
