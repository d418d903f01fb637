import "server-only";
/**
 * Listing a synced folder's session files and taking their stats (docs/formats.md "Sync"): what
 * a sync compares with what it stored, so a sync with nothing changed reads no file.
 *
 * Contract:
 * - Session files: `*.jsonl`, Gemini CLI's `session-*.json`, and opencode's storage sessions
 *   `session/<projectID>/<sessionID>.json` (a storage folder with a `message` folder), every
 *   one below `folder` (subagent files included), sorted by path: a session file before its
 *   subagents folder.
 * - The walk reads one folder at a time: a subfolder that cannot be listed (permissions) is a
 *   problem naming it, and the rest is listed. Links named like session files are listed with
 *   `link: true` and not judged here (the per-file sync resolves them inside the roots; a link
 *   loop is its error); links to folders are not followed, so no loop can trap the walk.
 * - Each file's stat (a link's target's); `stat: null` when none can be had (deleted meanwhile,
 *   no permission, a folder): the per-file sync says why. An opencode session's stat is its
 *   files' fingerprint (opencode-storage.ts `storageFingerprint`), from the message and part
 *   folder listings this walk made: no folder is listed twice, no file read.
 * - Speed: the file system is asked synchronously, in slices of about SLICE_MS with the event
 *   loop served between them (an app process keeps answering while it syncs). On a warm cache a
 *   stat takes microseconds and the thread-pool round trip of fs.promises several times that:
 *   docs/benchmarks.md "History" has the figures. `signal` is checked between slices.
 */
import { type Dirent, readdirSync, type Stats, statSync } from "node:fs";
import path from "node:path";
import { errorText } from "@/lib/text/error-text";
import { fileSystemProblem } from "./file-problems";
import type { FileStat } from "./file-stat";
import { type StorageIo, storageFingerprint, storageJsonNames, storageRootOf } from "./opencode-storage";

/** A folder the listing could not read, and why. */
export interface ListingProblem {
  path: string;
  message: string;
}

export interface ScannedFile {
  path: string;
  link: boolean;
  stat: FileStat | null;
  /** An opencode storage session (its stat is its files' fingerprint). */
  storage: boolean;
}

/** Gemini CLI's chat recordings are `session-*.json`; other JSON files are no sessions (but opencode's). */
const GEMINI_JSON = /^session-.*\.json$/;

export function isSessionName(name: string): boolean {
  return name.endsWith(".jsonl") || GEMINI_JSON.test(name);
}

const SLICE_MS = 8;

/** Runs of synchronous file-system calls, the event loop served every SLICE_MS. */
class Slices {
  private since = performance.now();
  private calls = 0;
  constructor(private readonly signal?: AbortSignal) {}

  /** After a slice's worth of calls: a pause that serves the event loop (then checks `signal`); else undefined. */
  tick(): Promise<void> | undefined {
    if (++this.calls % 32 !== 0 || performance.now() - this.since < SLICE_MS) return undefined;
    return new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      this.signal?.throwIfAborted();
      this.since = performance.now();
    });
  }
}

function statOrNull(file: string): Stats | null {
  try {
    return statSync(/*turbopackIgnore: true*/ file, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
}

function jsonNames(entries: readonly Dirent[]): string[] {
  return storageJsonNames(entries.map((e) => e.name));
}

export async function scanFolder(folder: string, opts: { signal?: AbortSignal } = {}): Promise<{ files: ScannedFile[]; problems: ListingProblem[] }> {
  const slices = new Slices(opts.signal);
  const problems: ListingProblem[] = [];
  const found: Omit<ScannedFile, "stat">[] = [];
  /** The `.json` names of every opencode message and part folder met, for the sessions' fingerprints. */
  const listings = new Map<string, string[]>();
  const hasMessages = new Map<string, boolean>();
  const isStorageSession = (file: string): boolean => {
    const root = storageRootOf(file);
    if (root === null) return false;
    const known = hasMessages.get(root);
    if (known !== undefined) return known;
    const has = statOrNull(path.join(/*turbopackIgnore: true*/ root, "message"))?.isDirectory() ?? false;
    hasMessages.set(root, has);
    return has;
  };
  const walk = async (dir: string): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = readdirSync(/*turbopackIgnore: true*/ dir, { withFileTypes: true });
    } catch (error) {
      problems.push({ path: dir, message: `${dir}: this folder cannot be listed: ${fileSystemProblem(error) ?? errorText(error)}` });
      return;
    }
    await slices.tick();
    const parent = path.basename(path.dirname(dir));
    if (parent === "message" || parent === "part") listings.set(dir, jsonNames(entries));
    for (const e of entries) {
      const file = path.join(/*turbopackIgnore: true*/ dir, e.name);
      if (e.isDirectory()) await walk(file);
      else if (!e.isFile() && !e.isSymbolicLink()) continue;
      else if (e.name.endsWith(".json") && isStorageSession(file)) found.push({ path: file, link: e.isSymbolicLink(), storage: true });
      else if (isSessionName(e.name)) found.push({ path: file, link: e.isSymbolicLink(), storage: false });
    }
  };
  await walk(folder);

  const io: StorageIo = {
    list: (dir) => listings.get(dir) ?? listNow(dir),
    // A session may have thousands of files: its stats are sliced too.
    stat: (file) => {
      const s = statOrNull(file);
      const st = s && { size: s.size, mtimeMs: s.mtimeMs };
      const pause = slices.tick();
      return pause ? pause.then(() => st) : st;
    },
  };
  const files: ScannedFile[] = [];
  for (const f of found.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    let stat: FileStat | null;
    if (f.storage) stat = await storageFingerprint(f.path, io);
    else {
      const s = statOrNull(f.path);
      stat = s?.isFile() ? { size: s.size, mtimeMs: s.mtimeMs } : null;
    }
    files.push({ ...f, stat });
    await slices.tick();
  }
  return { files, problems };
}

/** A folder the walk did not list (a storage folder's part of it lies outside the synced folder). */
function listNow(dir: string): string[] {
  try {
    return jsonNames(readdirSync(/*turbopackIgnore: true*/ dir, { withFileTypes: true }));
  } catch {
    return [];
  }
}
