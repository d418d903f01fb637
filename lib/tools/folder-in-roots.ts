/**
 * The allowed-roots rule of the project-folder setting and the "Sync folder" page: a folder is
 * accepted only when its real path (symlinks resolved) lies inside the real path of one of the
 * roots (ARBOR_ALLOWED_ROOTS).
 *
 * A refusal must not tell anything about paths outside the roots (whether they exist, or are
 * files or folders), so the roots are checked BEFORE anything about the path is said: first
 * lexically (no disk access: a path outside every root, as given or as real paths, is "outside"
 * at once), then by real path, walking up to the deepest part that exists when the path does not;
 * a link on the way that leads nowhere is "outside" too (its target may lie outside). Only a path
 * whose existing part really lies inside a root can be "missing" or "not_folder".
 */
import { lstat, realpath, stat } from "node:fs/promises";
import path from "node:path";

/** True when `child` is `parent` or lies below it (both absolute and normalised). */
export function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

export type FolderInRoots = { ok: true; real: string } | { ok: false; why: "outside" | "missing" | "not_folder" };

/** The real paths of the roots that exist. */
export async function realRoots(roots: readonly string[]): Promise<string[]> {
  const real: string[] = [];
  for (const root of roots) {
    const r = await realpath(path.resolve(root)).catch(() => undefined);
    if (r) real.push(r);
  }
  return real;
}

/** Judges an absolute `folder` against `roots` (see the header). */
export async function folderInRoots(folder: string, roots: readonly string[]): Promise<FolderInRoots> {
  const target = path.resolve(folder);
  const real = await realRoots(roots);
  const lexical = [...roots.map((r) => path.resolve(r)), ...real];
  if (!lexical.some((root) => isInside(root, target))) return { ok: false, why: "outside" };
  const inside = (p: string) => real.some((root) => isInside(root, p));
  for (let cur = target, missing = false; ; cur = path.dirname(cur), missing = true) {
    let resolved: string | undefined;
    try {
      resolved = await realpath(cur);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ENOTDIR") return { ok: false, why: "outside" };
      if (await lstat(cur).then((s) => s.isSymbolicLink(), () => false)) return { ok: false, why: "outside" };
      if (path.dirname(cur) === cur) return { ok: false, why: "outside" };
      continue;
    }
    if (!inside(resolved)) return { ok: false, why: "outside" };
    if (missing) return { ok: false, why: "missing" };
    if (!(await stat(resolved)).isDirectory()) return { ok: false, why: "not_folder" };
    return { ok: true, real: resolved };
  }
}
