/**
 * `find { pattern, path? }` — paths under `path` (default ".") matching a picomatch glob.
 * The glob is matched against the path relative to `path`; a pattern without "/" is matched
 * against the base name, so "*.ts" finds nested files. Dot-files match. Results are printed
 * relative to the workspace root (ready for read), sorted, folders with a trailing "/".
 * `node_modules` and `.git` are neither listed nor entered; symlinks are listed, never followed.
 * Capped at `maxResults` paths, the output caps, and `maxScanEntries` visited entries.
 * The glob's regular expression (picomatch) is matched in a worker under `grepTimeoutMs`
 * (regex-worker.ts), in batches of entries: a glob of many `*` can backtrack for minutes on a
 * long name, and must cost this call its budget at most, never the server.
 */
import picomatch from "picomatch";
import { z } from "zod";
import { quotePath, ToolError } from "./errors";
import { statOrUndefined } from "./file-io";
import { capLines, type ToolLimits, truncationNote } from "./limits";
import { RegexWorker } from "./regex-worker";
import type { WorkspaceTool } from "./types";
import { type WalkEntry, walk } from "./walk";
import { safePath, toRelative } from "./workspace";

/** The arguments; their JSON Schema for the model is generated from this (registry.ts). */
const schema = z.object({
  pattern: z.string().min(1).describe('Glob; without "/" it matches file names at any depth'),
  path: z.string().min(1).optional().describe('Folder to search, relative to the workspace root (default ".")'),
});

/** Entries sent to the worker at once: one round trip per batch, not per entry. */
const MATCH_BATCH = 2000;

/**
 * The glob's matcher in a worker. A pattern without "/" is matched against the base name, else
 * against the relative path (picomatch's own `basename` option also applies to patterns with
 * slashes, so it is decided here). Same test as picomatch's matcher: the input equals the glob,
 * or the compiled regular expression matches.
 */
function compile(pattern: string, limits: ToolLimits, signal: AbortSignal): { byPath: boolean; worker: RegexWorker } {
  let re: RegExp;
  try {
    re = picomatch.makeRe(pattern, { dot: true });
  } catch (error) {
    throw new ToolError(`Invalid glob ${quotePath(pattern)}: ${(error as Error).message}`);
  }
  return { byPath: pattern.includes("/"), worker: new RegexWorker({ source: re.source, flags: re.flags, glob: pattern }, limits.grepTimeoutMs, signal) };
}

function timeoutError(pattern: string, limits: ToolLimits): ToolError {
  const seconds = (limits.grepTimeoutMs / 1000).toLocaleString("en-US");
  return new ToolError(
    `Glob ${quotePath(pattern)} took longer than ${seconds} s to match; simplify the pattern (fewer "*" in one segment, ` +
      'or a fixed prefix such as "src/*.ts") or narrow the path.',
  );
}

export const findTool: WorkspaceTool<typeof schema> = {
  name: "find",
  description:
    'Find files and folders by glob pattern (e.g. "*.ts", "src/**/*.test.ts") under a folder of the workspace. ' +
    "Returns workspace-relative paths, folders ending in \"/\". Skips node_modules and .git.",
  schema,
  async run(args, ctx) {
    const userPath = args.path ?? ".";
    const matcher = compile(args.pattern, ctx.limits, ctx.signal);
    const base = await safePath(ctx.root, userPath);
    const st = await statOrUndefined(base, userPath);
    if (!st) throw new ToolError(`Path ${quotePath(userPath)} does not exist`, "not_found");
    if (!st.isDirectory()) throw new ToolError(`Path ${quotePath(userPath)} is not a folder`);

    const found: string[] = [];
    let resultsCapped = false;
    let pending: WalkEntry[] = [];
    /** Matches the pending entries in walk order; "stop" once the results are capped. */
    const flush = async (): Promise<"stop" | undefined> => {
      const batch = pending;
      pending = [];
      if (batch.length === 0) return undefined;
      const hits = await matcher.worker.testAll(batch.map((e) => (matcher.byPath ? e.rel : e.name)));
      if (hits === "timeout") throw timeoutError(args.pattern, ctx.limits);
      for (let i = 0; i < batch.length; i++) {
        if (!hits[i]) continue;
        if (found.length >= ctx.limits.maxResults) {
          resultsCapped = true;
          return "stop";
        }
        const e = batch[i]!;
        found.push(toRelative(ctx.root, e.abs) + (e.kind === "directory" ? "/" : ""));
      }
      return undefined;
    };
    let scanCapped = false;
    try {
      const walked = await walk(base, { maxEntries: ctx.limits.maxScanEntries, signal: ctx.signal }, (e) => {
        if (e.skipped) return undefined;
        pending.push(e);
        return pending.length >= MATCH_BATCH ? flush() : undefined;
      });
      scanCapped = walked.capped;
      if (!resultsCapped) await flush();
    } finally {
      await matcher.worker.close();
    }

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
