/**
 * What `import` reads: each argument is a FILE, a DIRECTORY (every `*.jsonl` below it, and the
 * Gemini CLI recordings `session-*.json`, recursively) or a quoted GLOB that we expand ourselves with picomatch (`'logs/**\/*.jsonl'`), so
 * 10,000 sessions need no 10,000 arguments (the shell's argument limit, E2BIG).
 *
 * Contract:
 * - The result keeps the arguments' order; a directory's or glob's files are sorted, and a file
 *   named twice is read once.
 * - A directory without session files, or a glob matching no file, is a UsageError naming it
 *   (exit 2). Other `.json` files (an opencode export has no fixed name) are read when named as
 *   a FILE or matched by a GLOB: a folder holds too many JSON files that are no sessions. A FILE argument is passed on unchecked: the import itself reports a missing file.
 * - Walks do not follow symbolic links to directories (no cycles); hidden entries are skipped
 *   unless the glob names them (picomatch's `dot: false`).
 */
import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import picomatch from "picomatch";
import { UsageError } from "@/cli/command";

/** Every file below `dir` whose path relative to `dir` satisfies `keep`, sorted. */
async function walk(dir: string, keep: (relative: string) => boolean): Promise<string[]> {
  const found: string[] = [];
  const visit = async (folder: string, relative: string): Promise<void> => {
    const entries = await readdir(folder, { withFileTypes: true });
    for (const entry of entries) {
      const rel = relative ? `${relative}/${entry.name}` : entry.name;
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) await visit(full, rel);
      else if ((entry.isFile() || (entry.isSymbolicLink() && (await stat(full).then((s) => s.isFile(), () => false)))) && keep(rel)) found.push(full);
    }
  };
  await visit(dir, "");
  return found.sort();
}

/** Names a folder walk takes: JSONL files, and Gemini CLI's chat recordings (`session-*.json`). */
function isSessionFileName(relative: string): boolean {
  return relative.endsWith(".jsonl") || /(^|\/)session-[^/]*\.json$/.test(relative);
}

const isDirectory = (p: string) =>
  stat(p).then(
    (s) => s.isDirectory(),
    () => false,
  );

async function expandOne(arg: string): Promise<string[]> {
  const scan = picomatch.scan(arg);
  if (scan.isGlob) {
    const base = scan.base || ".";
    if (!(await isDirectory(base))) throw new UsageError(`no file matches "${arg}" (folder ${base} does not exist)`);
    const matches = picomatch(scan.glob, { dot: false });
    const files = await walk(base, (rel) => matches(rel));
    if (files.length === 0) throw new UsageError(`no file matches "${arg}"`);
    return files;
  }
  if (await isDirectory(arg)) {
    const files = await walk(arg, (rel) => isSessionFileName(rel) && !rel.split("/").some((part) => part.startsWith(".")));
    if (files.length === 0) throw new UsageError(`no session files (*.jsonl, session-*.json) in folder ${arg}`);
    return files;
  }
  return [arg];
}

/** The files to import for the command line's FILE / DIRECTORY / GLOB arguments. */
export async function expandImportPaths(args: readonly string[]): Promise<string[]> {
  const seen = new Set<string>();
  const files: string[] = [];
  for (const arg of args) {
    for (const file of await expandOne(arg)) {
      const key = path.resolve(file);
      if (seen.has(key)) continue;
      seen.add(key);
      files.push(file);
    }
  }
  return files;
}
