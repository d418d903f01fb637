/**
 * `grep { pattern, path? }` — lines matching a JavaScript regular expression (case-sensitive, no
 * flags) in a file or under a folder (default "."). Output: `file:line: text`, files relative to
 * the workspace root, lines cut to `maxLineChars`. Skips binary files, files over `maxFileBytes`,
 * `node_modules`, `.git` and symlinks (never followed). Capped at `maxResults` matches, the
 * output caps and `maxScanEntries` visited entries.
 * Matching runs in a worker thread (regex-worker.ts) that is terminated when `grepTimeoutMs` runs
 * out, so a catastrophic pattern (ReDoS) costs at most that long for this call and never blocks
 * the server's other requests; the call then fails with a tool error saying how to fix the pattern.
 */
import { z } from "zod";
import { decodeFile } from "./content";
import { quotePath, ToolError } from "./errors";
import { readRegularFile, statOrUndefined } from "./file-io";
import { capLines, formatCount, truncationNote } from "./limits";
import type { WorkspaceTool } from "./types";
import { walk } from "./walk";
import { isWorkerOutOfMemory, RegexWorker } from "./regex-worker";
import { safePath, toRelative } from "./workspace";

/** The arguments; their JSON Schema for the model is generated from this (registry.ts). */
const schema = z.object({
  pattern: z.string().min(1).describe("JavaScript regular expression, without slashes or flags"),
  path: z.string().min(1).optional().describe('File or folder to search, relative to the workspace root (default ".")'),
});

function compile(pattern: string): RegExp {
  try {
    return new RegExp(pattern);
  } catch (error) {
    throw new ToolError(`Invalid regular expression /${pattern}/: ${(error as Error).message}`);
  }
}

/** The tool error for a pattern that ran out of its time budget (ReDoS): what, the budget, the fix. */
export function regexTimeoutMessage(pattern: string, budgetMs: number, partial: boolean): string {
  const seconds = (budgetMs / 1000).toLocaleString("en-US");
  if (partial) {
    return `[Search stopped after ${seconds} s; results are incomplete. Simplify the pattern or narrow the path.]`;
  }
  return (
    `Search for /${pattern}/ took longer than ${seconds} s; simplify the pattern. It was stopped at its time budget, ` +
    "most likely because the pattern backtracks catastrophically: avoid nested or adjacent repetition " +
    "such as (a+)+, (a|a)* or .*.*, anchor it, or search for a plain substring."
  );
}

function cutLine(line: string, maxChars: number): string {
  return line.length > maxChars ? `${line.slice(0, maxChars)}… [${formatCount(line.length - maxChars)} more characters]` : line;
}

export const grepTool: WorkspaceTool<typeof schema> = {
  name: "grep",
  description:
    "Search file contents with a JavaScript regular expression (case-sensitive) in a file or folder of the " +
    'workspace. Returns "file:line: text" lines. Skips binary files, node_modules and .git.',
  schema,
  async run(args, ctx) {
    const userPath = args.path ?? ".";
    const re = compile(args.pattern);
    const base = await safePath(ctx.root, userPath);
    const st = await statOrUndefined(base, userPath);
    if (!st) throw new ToolError(`Path ${quotePath(userPath)} does not exist`, "not_found");
    if (!st.isDirectory() && !st.isFile()) throw new ToolError(`Path ${quotePath(userPath)} is not a file or folder`);

    const { limits, signal } = ctx;
    const matcher = new RegexWorker({ source: re.source, flags: re.flags }, limits.grepTimeoutMs, signal);
    const results: string[] = [];
    let filesSearched = 0;
    let resultsCapped = false;
    let timedOut = false;

    const searchFile = async (abs: string): Promise<"stop" | undefined> => {
      const bytes = await readRegularFile(abs, abs, { maxBytes: limits.maxFileBytes, signal }).catch((error) => {
        if (error instanceof ToolError) return undefined; // too big, vanished, special: skip
        throw error;
      });
      if (!bytes) return undefined;
      const decoded = decodeFile(bytes);
      if (decoded.kind === "binary") return undefined;
      filesSearched++;
      const found = await matcher.matchLines(decoded.text, limits.maxResults - results.length + 1).catch((error: unknown) => {
        if (isWorkerOutOfMemory(error)) throw new ToolError(`Search for /${args.pattern}/ ran out of memory in ${quotePath(toRelative(ctx.root, abs))}; narrow the path`);
        throw error;
      });
      if (found === "timeout") {
        timedOut = true;
        return "stop";
      }
      if (found.length === 0) return undefined;
      const lines = decoded.text.split(/\r?\n/);
      const rel = toRelative(ctx.root, abs);
      for (const i of found) {
        if (results.length >= limits.maxResults) {
          resultsCapped = true;
          return "stop";
        }
        results.push(`${rel}:${i + 1}: ${cutLine(lines[i] ?? "", limits.maxLineChars)}`);
      }
      return undefined;
    };

    let scanCapped = false;
    try {
      if (st.isFile()) {
        await searchFile(base);
      } else {
        const walked = await walk(base, { maxEntries: limits.maxScanEntries, signal }, (e) =>
          e.kind === "file" ? searchFile(e.abs) : undefined,
        );
        scanCapped = walked.capped;
      }
    } finally {
      await matcher.close();
    }

    const shown = `/${args.pattern}/ in ${toRelative(ctx.root, base)}`;
    if (timedOut && results.length === 0) {
      throw new ToolError(regexTimeoutMessage(args.pattern, limits.grepTimeoutMs, false));
    }
    if (results.length === 0) {
      const note = scanCapped ? ` (stopped after scanning ${formatCount(limits.maxScanEntries)} entries)` : "";
      return { text: `No matches for ${shown}${note}`, details: { matches: 0, filesSearched } };
    }
    const out = capLines(results, limits);
    let text = out.lines.join("\n");
    const cutBy = out.cutBy ?? (resultsCapped ? "results" : scanCapped ? "scan" : undefined);
    if (cutBy) {
      text += `\n\n${truncationNote({
        unit: "matches",
        from: 1,
        to: out.lines.length,
        total: out.cutBy && !resultsCapped ? results.length : undefined,
        cutBy,
        limits,
        hint: "Narrow the pattern or the path.",
      })}`;
    }
    if (timedOut) {
      text += `\n\n${regexTimeoutMessage(args.pattern, limits.grepTimeoutMs, true)}`;
    }
    return { text, details: { matches: results.length, filesSearched, truncated: cutBy !== undefined || timedOut } };
  },
};
