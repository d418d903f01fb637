/**
 * Breadth-first traversal of a workspace folder for find, grep and the file panel.
 * Symbolic links are reported but never followed, so a link pointing outside the workspace can
 * never lead the walk (or a read) outside it. `node_modules` and `.git` folders are reported
 * with `skipped: true` and not entered. Children are visited in code-unit name order; the walk
 * stops after `maxEntries` entries and checks the abort signal once per folder.
 */
import type { Dirent } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";
import type { EntryKind } from "@/lib/types/workspace-files";

export const SKIPPED_DIRS: ReadonlySet<string> = new Set(["node_modules", ".git"]);


export interface WalkEntry {
  /** Absolute path. */
  abs: string;
  /** POSIX path relative to the folder the walk started from. */
  rel: string;
  name: string;
  kind: EntryKind;
  /** Depth below the start folder (its children are 1). */
  depth: number;
  /** A directory the walk did not enter (see SKIPPED_DIRS). */
  skipped: boolean;
}

export interface WalkResult {
  /** True when the walk stopped at `maxEntries` with entries left. */
  capped: boolean;
}

function kindOf(d: Dirent): EntryKind {
  if (d.isSymbolicLink()) return "symlink";
  if (d.isDirectory()) return "directory";
  if (d.isFile()) return "file";
  return "other";
}

function byName(a: Dirent, b: Dirent): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/**
 * Calls `visit` for every entry under `startAbs` (not for the start itself). `visit` may return
 * "stop" to end the walk early. Unreadable folders are passed over silently.
 */
export async function walk(
  startAbs: string,
  opts: { maxEntries: number; signal: AbortSignal },
  visit: (entry: WalkEntry) => Promise<"stop" | undefined> | "stop" | undefined,
): Promise<WalkResult> {
  const queue: { abs: string; rel: string; depth: number }[] = [{ abs: startAbs, rel: "", depth: 0 }];
  let seen = 0;
  for (let next = 0; next < queue.length; next++) {
    opts.signal.throwIfAborted();
    const dir = queue[next]!;
    let children: Dirent[];
    try {
      children = await readdir(dir.abs, { withFileTypes: true });
    } catch {
      continue;
    }
    children.sort(byName);
    for (const d of children) {
      if (seen >= opts.maxEntries) return { capped: true };
      seen++;
      const kind = kindOf(d);
      const rel = dir.rel === "" ? d.name : `${dir.rel}/${d.name}`;
      const abs = path.join(dir.abs, d.name);
      const skipped = kind === "directory" && SKIPPED_DIRS.has(d.name);
      if ((await visit({ abs, rel, name: d.name, kind, depth: dir.depth + 1, skipped })) === "stop") {
        return { capped: false };
      }
      if (kind === "directory" && !skipped) queue.push({ abs, rel, depth: dir.depth + 1 });
    }
  }
  return { capped: false };
}
