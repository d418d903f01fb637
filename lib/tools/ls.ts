/**
 * `ls { path? }` — one folder's entries (default "."), sorted by name in code-unit order, one per
 * line: folders end in "/", files show their size. Symbolic links are resolved only to classify
 * them: a link to something inside the workspace is shown like its target with " (link)"; a link
 * leading outside is shown as such, without its target, size or contents. Output is capped.
 */
import type { Dirent } from "node:fs";
import { readdir, realpath, stat } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { quotePath, ToolError } from "./errors";
import { asToolError, statOrUndefined } from "./file-io";
import { formatBytes } from "@/lib/text/byte-size";
import { capLines, truncationNote } from "./limits";
import type { WorkspaceTool } from "./types";
import { isInside, safePath, toRelative } from "./workspace";

/** The arguments; their JSON Schema for the model is generated from this (registry.ts). */
const schema = z.object({
  path: z.string().min(1).optional().describe('Folder path relative to the workspace root (default ".")'),
});

async function describeLink(root: string, abs: string, name: string): Promise<string> {
  let real: string;
  try {
    real = await realpath(abs);
  } catch {
    return `${name} (broken symbolic link)`;
  }
  if (!isInside(root, real)) return `${name} (symbolic link to outside the workspace)`;
  const st = await stat(real).catch(() => undefined);
  if (st?.isDirectory()) return `${name}/ (link)`;
  if (st?.isFile()) return `${name}  ${formatBytes(st.size)} (link)`;
  return `${name} (link)`;
}

async function describeEntry(root: string, dirAbs: string, d: Dirent): Promise<string> {
  const abs = path.join(dirAbs, d.name);
  if (d.isSymbolicLink()) return describeLink(root, abs, d.name);
  if (d.isDirectory()) return `${d.name}/`;
  if (d.isFile()) {
    const st = await stat(abs).catch(() => undefined);
    return st ? `${d.name}  ${formatBytes(st.size)}` : d.name;
  }
  return `${d.name} (special file)`;
}

export const lsTool: WorkspaceTool<typeof schema> = {
  name: "ls",
  description:
    'List a folder in the workspace (default "."). Folders end in "/"; files show their size. Hidden files are included.',
  schema,
  async run(args, ctx) {
    const userPath = args.path ?? ".";
    const abs = await safePath(ctx.root, userPath);
    const rel = toRelative(ctx.root, abs);
    const st = await statOrUndefined(abs, userPath);
    if (!st) throw new ToolError(`Path ${quotePath(userPath)} does not exist`, "not_found");
    if (st.isFile()) return { text: `${rel}  ${formatBytes(st.size)}`, details: { path: rel, entries: 1 } };
    if (!st.isDirectory()) throw new ToolError(`Path ${quotePath(userPath)} is not a folder`);

    ctx.signal.throwIfAborted();
    let entries: Dirent[];
    try {
      entries = await readdir(abs, { withFileTypes: true });
    } catch (error) {
      throw asToolError(error, userPath);
    }
    if (entries.length === 0) return { text: `(${rel} is empty)`, details: { path: rel, entries: 0 } };
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

    // Describe only what can be shown; a folder of a million files costs one readdir, not a million stats.
    const shown = entries.slice(0, ctx.limits.maxOutputLines);
    const lines: string[] = [];
    for (const [i, d] of shown.entries()) {
      if (i % 100 === 0) ctx.signal.throwIfAborted();
      lines.push(await describeEntry(ctx.root, abs, d));
    }
    const capped = capLines(lines, ctx.limits);
    let text = capped.lines.join("\n");
    const cutBy = capped.cutBy ?? (entries.length > shown.length ? "lines" : undefined);
    if (cutBy) {
      text += `\n\n${truncationNote({
        unit: "entries",
        from: 1,
        to: capped.lines.length,
        total: entries.length,
        cutBy,
        limits: ctx.limits,
        hint: "Use find with a pattern to narrow the listing.",
      })}`;
    }
    return { text, details: { path: rel, entries: entries.length, truncated: cutBy !== undefined } };
  },
};
