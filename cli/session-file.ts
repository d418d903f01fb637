/**
 * Reading a session file for a CLI command: load (parse → migrate → index) in memory, report
 * skipped lines on stderr as `file:line: reason`, and turn every expected failure into a
 * one-line CliError naming the file. The file is never written.
 *
 * Indices printed by the commands are 0-based positions in `entries`: the file's entries in
 * file order, after migration, header excluded (lines skipped as malformed are not counted).
 *
 * Stable ids for v1 files: migration (session-engine.md §1.7) gives v1 entries fresh ids from
 * `crypto.randomUUID()`, which would change on every run and make `tree` ids useless for a
 * later `--leaf`. The CLI therefore migrates with a UUID source seeded from the file
 * text (the loader's `uuid` option), so the same file always migrates to the same ids (still unique
 * within the file).
 */
import { readFileSync } from "node:fs";
import { CliError, type CliIo } from "@/cli/command";
import { Rng } from "@/lib/random";
import { type LoadedSession, loadSession, NotASessionError, UnsupportedVersionError } from "@/lib/session/file/load";
import type { SessionEntry } from "@/lib/session/types";

export interface SessionFile extends LoadedSession {
  file: string;
  /** Entry id → index in `entries`. */
  indexOf: ReadonlyMap<string, number>;
}

function readText(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new CliError(`${file}: no such file`);
    if (code === "EISDIR") throw new CliError(`${file}: is a directory, not a session file`);
    if (code === "EACCES") throw new CliError(`${file}: permission denied`);
    throw new CliError(`${file}: cannot read (${code ?? String(err)})`);
  }
}

/** FNV-1a over (a prefix of) the text: a cheap, stable seed. */
function seedOf(text: string): number {
  let h = 0x811c9dc5;
  const n = Math.min(text.length, 65_536);
  for (let i = 0; i < n; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h ^ text.length) >>> 0;
}

export function readSessionFile(file: string, io: CliIo): SessionFile {
  const text = readText(file);
  let loaded: LoadedSession;
  try {
    const rng = Rng.seeded(seedOf(text));
    loaded = loadSession(text, { uuid: () => rng.uuid() });
  } catch (err) {
    if (err instanceof NotASessionError) {
      // The reason names the line when one is to blame ("line 1: the first JSON object …").
      const where = /^line (\d+): (.*)$/.exec(err.reason);
      throw new CliError(where ? `${file}:${where[1]}: not a session file: ${where[2]}` : `${file}: not a session file: ${err.reason}`);
    }
    if (err instanceof UnsupportedVersionError) throw new CliError(`${file}:${err.line}: ${err.reason}`);
    throw err;
  }
  for (const skip of loaded.skipped) io.err(`${file}:${skip.line}: ${skip.reason}\n`);
  const indexOf = new Map<string, number>();
  loaded.entries.forEach((e, i) => {
    indexOf.set(e.id, i);
  });
  return { ...loaded, file, indexOf };
}

/** `--leaf ID` (default: the last entry, session-engine.md §1.6); an unknown id is a one-line error. */
export function resolveLeaf(session: SessionFile, leaf: string | undefined): string | null {
  if (leaf === undefined) return session.tree.getLeafId();
  if (!session.indexOf.has(leaf)) throw new CliError(`${session.file}: no entry with id "${leaf}" (--leaf)`);
  return leaf;
}

/** The root-first path to the leaf; [] for an empty session. */
export function pathTo(session: SessionFile, leafId: string | null): SessionEntry[] {
  return leafId === null ? [] : session.tree.getBranch(leafId);
}

/** File index of a path position (`-1` stays `-1`). */
export function fileIndex(session: SessionFile, path: readonly SessionEntry[], pathIndex: number): number {
  if (pathIndex < 0) return -1;
  const entry = path[pathIndex];
  const index = entry ? session.indexOf.get(entry.id) : undefined;
  if (index === undefined) throw new Error(`path position ${pathIndex} has no file index`);
  return index;
}

/** Short human description of an entry: its type, or `message/<role>`. */
export function describeEntry(entry: SessionEntry | undefined): string {
  if (!entry) return "(none)";
  if (entry.type === "message") return `message/${(entry.message as { role?: unknown }).role ?? "?"} ${entry.id}`;
  return `${entry.type} ${entry.id}`;
}
