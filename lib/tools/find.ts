/**
 * `find { pattern, path? }` — paths under `path` (default ".") matching a picomatch glob.
 * The glob is matched against the path relative to `path`; a pattern without "/" is matched
 * against the base name, so "*.ts" finds nested files. Dot-files match. Results are printed
 * relative to the workspace root (ready for read), sorted, folders with a trailing "/".
 * `node_modules` and `.git` are neither listed nor entered; symlinks are listed, never followed.
 * Capped at `maxResults` paths, the output caps, and `maxScanEntries` visited entries.
 */
import picomatch from "picomatch";
import { z } from "zod";
import { quotePath, ToolError } from "./errors";
import { statOrUndefined } from "./file-io";
import { capLines, truncationNote } from "./limits";
import type { WorkspaceTool } from "./types";
import { walk } from "./walk";
import { safePath, toRelative } from "./workspace";

const schema = z.object({
  pattern: z.string().min(1),
  path: z.string().min(1).optional(),
});

/** Matches an entry by base name when the pattern has no "/", else by its relative path. */
function compile(pattern: string): (rel: string, name: string) => boolean {
  try {
    const test = picomatch(pattern, { dot: true });
    // picomatch's own `basename` option also applies to patterns with slashes, so decide here.
    return pattern.includes("/") ? (rel) => test(rel) : (_rel, name) => test(name);
  } catch (error) {
    throw new ToolError(`Invalid glob ${quotePath(pattern)}: ${(error as Error).message}`);
  }
}

export const findTool: WorkspaceTool<typeof schema> = {
  name: "find",
  description:
    'Find files and folders by glob pattern (e.g. "*.ts", "src/**/*.test.ts") under a folder of the workspace. ' +
    "Returns workspace-relative paths, folders ending in \"/\". Skips node_modules and .git.",
  parameters: {
    type: "object",
    properties: {
      pattern: { type: "string", description: 'Glob; without "/" it matches file names at any depth' },
      path: { type: "string", description: 'Folder to search, relative to the workspace root (default ".")' },
    },
    required: ["pattern"],
    additionalProperties: false,
  },
  schema,
  async run(args, ctx) {
    const userPath = args.path ?? ".";
    const matches = compile(args.pattern);
    const base = await safePath(ctx.root, userPath);
    const st = await statOrUndefined(base, userPath);
    if (!st) throw new ToolError(`Path ${quotePath(userPath)} does not exist`);
    if (!st.isDirectory()) throw new ToolError(`Path ${quotePath(userPath)} is not a folder`);

    const found: string[] = [];
    let resultsCapped = false;
    const { capped: scanCapped } = await walk(base, { maxEntries: ctx.limits.maxScanEntries, signal: ctx.signal }, (e) => {
      if (e.skipped || !matches(e.rel, e.name)) return undefined;
      if (found.length >= ctx.limits.maxResults) {
        resultsCapped = true;
        return "stop";
      }
      found.push(toRelative(ctx.root, e.abs) + (e.kind === "directory" ? "/" : ""));
      return undefined;
    });

    const where = toRelative(ctx.root, base);
    if (found.length === 0) {
      const note = scanCapped ? ` (stopped after scanning ${ctx.limits.maxScanEntries} entries)` : "";
      return { text: `No paths match ${quotePath(args.pattern)} in ${where}${note}`, details: { count: 0 } };
    }
    found.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const out = capLines(found, ctx.limits);
    const cutBy = out.cutBy ?? (resultsCapped ? "results" : scanCapped ? "scan" : undefined);
    let text = out.lines.join("\n");
    if (cutBy) {
      text += `\n\n${truncationNote({
        unit: "entries",
        from: 1,
        to: out.lines.length,
        total: out.cutBy ? found.length : undefined,
        cutBy,
        limits: ctx.limits,
        hint: "Narrow the pattern or the path.",
      })}`;
    }
    return { text, details: { count: found.length, truncated: cutBy !== undefined } };
  },
};
