/**
 * `edit { path, oldText, newText }` — replaces one exact, unique occurrence of `oldText`.
 * Zero matches → "oldText not found in <path>"; several → "oldText matches N places in <path>;
 * include more context". Occurrences are counted overlapping ("aa" in "aaa" is 2), so a match is
 * only accepted when it is truly unambiguous. The replacement is literal (no `$&` patterns).
 * `details` carries `{ path, diff, firstChangedLine }` with a unified diff old→new.
 */
import { z } from "zod";
import { decodeFile, type DiffDetails, unifiedDiff } from "./content";
import { quotePath, ToolError } from "./errors";
import { readRegularFile, writeRegularFile } from "./file-io";
import { formatCount } from "./limits";
import type { WorkspaceTool } from "./types";
import { safePath, toRelative } from "./workspace";

/** The arguments; their JSON Schema for the model is generated from this (registry.ts). */
const schema = z.object({
  path: z.string().min(1).describe("File path relative to the workspace root"),
  oldText: z.string().min(1).describe("Exact text to replace; must occur exactly once"),
  newText: z.string().describe("Replacement text"),
});

export interface EditDetails extends DiffDetails {
  path: string;
  /** 1-based line where the replaced text started. */
  firstChangedLine: number;
}

/** Start indices of `needle` in `hay`, overlapping, stopping once `stopAt` are found. */
function occurrences(hay: string, needle: string, stopAt: number): number[] {
  const found: number[] = [];
  for (let i = hay.indexOf(needle); i !== -1 && found.length < stopAt; i = hay.indexOf(needle, i + 1)) {
    found.push(i);
  }
  return found;
}

function lineCount(s: string): number {
  return s.split("\n").length;
}

export const editTool: WorkspaceTool<typeof schema> = {
  name: "edit",
  description:
    "Edit a text file by replacing one exact occurrence of oldText with newText. oldText must match the file " +
    "exactly (whitespace and line breaks included) and only once; add surrounding lines to make it unique.",
  schema,
  async run(args, ctx) {
    const abs = await safePath(ctx.root, args.path);
    const rel = toRelative(ctx.root, abs);
    const bytes = await readRegularFile(abs, args.path, { maxBytes: ctx.limits.maxFileBytes, signal: ctx.signal });
    const decoded = decodeFile(bytes);
    if (decoded.kind === "binary") throw new ToolError(`Cannot edit ${quotePath(args.path)}: it is a binary file`);
    const text = decoded.text;

    if (args.oldText === args.newText) throw new ToolError(`oldText and newText are identical; nothing to change in ${rel}`);
    const found = occurrences(text, args.oldText, 1000);
    if (found.length === 0) {
      const crlf = text.includes("\r\n") && !args.oldText.includes("\r\n") && args.oldText.includes("\n");
      const hint = crlf ? " (the file uses CRLF line endings)" : "";
      throw new ToolError(`oldText not found in ${rel}${hint}`);
    }
    if (found.length > 1) {
      const n = found.length >= 1000 ? "1,000+" : formatCount(found.length);
      throw new ToolError(`oldText matches ${n} places in ${rel}; include more context`);
    }

    const at = found[0]!;
    const next = text.slice(0, at) + args.newText + text.slice(at + args.oldText.length);
    const nextBytes = Buffer.byteLength(next, "utf8");
    if (nextBytes > ctx.limits.maxWriteBytes) {
      throw new ToolError(`Editing ${rel} would make it ${formatCount(nextBytes)} bytes, over the write limit`);
    }
    ctx.signal.throwIfAborted();
    await writeRegularFile(abs, args.path, next, ctx.signal);

    const firstChangedLine = lineCount(text.slice(0, at));
    const details: EditDetails = { path: rel, firstChangedLine, ...unifiedDiff(rel, text, next, ctx.limits.maxDiffBytes) };
    const from = lineCount(args.oldText);
    const to = args.newText === "" ? 0 : lineCount(args.newText);
    return {
      text: `Edited ${rel}: replaced ${from} line${from === 1 ? "" : "s"} with ${to} line${to === 1 ? "" : "s"} at line ${firstChangedLine}`,
      details,
    };
  },
};
