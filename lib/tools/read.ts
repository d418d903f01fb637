/**
 * `read { path, offset?, limit? }` — a text file with line numbers.
 * `offset` is the 1-based first line and `limit` the line count (session-engine.md §16.2 shows the row as
 * `[read: path:start-end]`). Output is capped by lines and bytes with a note saying how to read
 * on; binary files are described, not dumped; files over `maxFileBytes` are refused.
 */
import { z } from "zod";
import { decodeFile, describeBinary, splitLines } from "./content";
import { quotePath, ToolError } from "./errors";
import { readRegularFile } from "./file-io";
import { capLines, formatCount, truncationNote } from "./limits";
import type { WorkspaceTool } from "./types";
import { safePath, toRelative } from "./workspace";

/** The arguments; their JSON Schema for the model is generated from this (registry.ts). */
const schema = z.object({
  path: z.string().min(1).describe("File path relative to the workspace root"),
  offset: z.number().int().min(1).optional().describe("1-based line to start at (default 1)"),
  limit: z.number().int().min(1).optional().describe("Number of lines to read (default: to the end, within the output cap)"),
});

export const readTool: WorkspaceTool<typeof schema> = {
  name: "read",
  description:
    "Read a text file from the workspace. Returns numbered lines (number, tab, text). Long files are cut at " +
    "2000 lines or 50 KB with a note; use offset and limit to read other parts. Binary files are only described.",
  schema,
  async run(args, ctx) {
    const abs = await safePath(ctx.root, args.path);
    const rel = toRelative(ctx.root, abs);
    const bytes = await readRegularFile(abs, args.path, { maxBytes: ctx.limits.maxFileBytes, signal: ctx.signal });
    const decoded = decodeFile(bytes);
    if (decoded.kind === "binary") {
      return { text: describeBinary(rel, bytes), details: { path: rel, binary: true, size: bytes.length } };
    }
    // A BOM is kept for edit's sake but is noise to the model.
    const lines = splitLines(decoded.text.replace(/^\uFEFF/, ""));
    const total = lines.length;
    if (total === 0) return { text: `(${rel} is empty)`, details: { path: rel, totalLines: 0 } };

    const start = args.offset ?? 1;
    if (start > total) {
      throw new ToolError(
        `Offset ${start} is past the end of ${quotePath(args.path)}, which has ${formatCount(total)} lines`,
      );
    }
    const requestedEnd = args.limit === undefined ? total : Math.min(total, start + args.limit - 1);
    // Never number more lines than the line cap lets through.
    const lastCandidate = Math.min(requestedEnd, start + ctx.limits.maxOutputLines);
    const width = String(Math.min(requestedEnd, start + ctx.limits.maxOutputLines - 1)).length;
    const numbered = lines
      .slice(start - 1, lastCandidate)
      .map((line, i) => `${String(start + i).padStart(width, " ")}\t${line}`);
    const capped = capLines(numbered, ctx.limits);
    const end = start + capped.lines.length - 1;

    let text = capped.lines.join("\n");
    if (capped.cutBy) {
      const hint = capped.partialLine
        ? `Line ${start} alone is longer than the output limit and was cut.`
        : `Use offset/limit to read more (next: offset ${end + 1}).`;
      text += `\n\n${truncationNote({ unit: "lines", from: start, to: end, total, cutBy: capped.cutBy, limits: ctx.limits, hint })}`;
    } else if (end < total) {
      text += `\n\n[Showing lines ${start}-${end} of ${formatCount(total)}. Use offset ${end + 1} to read more.]`;
    }
    return {
      text,
      details: { path: rel, startLine: start, endLine: end, totalLines: total, truncated: capped.cutBy !== undefined },
    };
  },
};
