/**
 * `write { path, content }` — creates or replaces a text file, creating parent folders.
 * The result states the bytes written; `details` carries `{ path, bytes, created, diff }` where
 * `diff` is a unified diff old→new for the UI (old is "" for a new file). Content over
 * `maxWriteBytes` is refused before anything touches the disk.
 */
import { z } from "zod";
import { decodeFile, type DiffDetails, unifiedDiff } from "./content";
import { quotePath, ToolError } from "./errors";
import { readRegularFile, statOrUndefined, writeRegularFile } from "./file-io";
import { formatBytes } from "@/lib/text/byte-size";
import { formatCount } from "./limits";
import type { WorkspaceTool } from "./types";
import { safePath, toRelative } from "./workspace";

/** The arguments; their JSON Schema for the model is generated from this (registry.ts). */
const schema = z.object({
  path: z.string().min(1).describe("File path relative to the workspace root"),
  content: z.string().describe("The complete new content of the file"),
});

export interface WriteDetails extends DiffDetails {
  path: string;
  bytes: number;
  created: boolean;
}

export const writeTool: WorkspaceTool<typeof schema> = {
  name: "write",
  description:
    "Write a text file in the workspace, replacing it if it exists and creating parent folders as needed. " +
    "Prefer edit for changing part of an existing file.",
  schema,
  async run(args, ctx) {
    const bytes = Buffer.byteLength(args.content, "utf8");
    if (bytes > ctx.limits.maxWriteBytes) {
      throw new ToolError(
        `Content for ${quotePath(args.path)} is ${formatBytes(bytes)}, over the ${formatBytes(ctx.limits.maxWriteBytes)} write limit`,
      );
    }
    const abs = await safePath(ctx.root, args.path);
    const rel = toRelative(ctx.root, abs);

    // The old text, for the diff. A file too big to read, or binary, gets no diff.
    let old: string | undefined = "";
    let diffOmitted: DiffDetails["diffOmitted"];
    const st = await statOrUndefined(abs, args.path);
    if (st?.isFile()) {
      if (st.size > ctx.limits.maxFileBytes) {
        old = undefined;
        diffOmitted = "tooLarge";
      } else {
        const decoded = decodeFile(await readRegularFile(abs, args.path, { maxBytes: ctx.limits.maxFileBytes, signal: ctx.signal }));
        old = decoded.kind === "text" ? decoded.text : undefined;
        if (decoded.kind === "binary") diffOmitted = "binary";
      }
    }

    const created = await writeRegularFile(abs, args.path, args.content, ctx.signal);
    const diff: DiffDetails =
      old === undefined ? { diffOmitted } : unifiedDiff(rel, old, args.content, ctx.limits.maxDiffBytes);
    const details: WriteDetails = { path: rel, bytes, created, ...diff };
    const verb = created ? "Created" : "Overwrote";
    return { text: `${verb} ${rel}: wrote ${formatCount(bytes)} bytes`, details };
  },
};
