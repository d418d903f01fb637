/**
 * `import PATH… [--title T] [--as-copy] [--json]`: imports pi / oh-my-pi, Claude Code, Codex CLI,
 * Gemini CLI and opencode sessions into the database (lib/db/import/import.ts: streamed, migrated, one
 * transaction per file). A PATH is a file, a folder (its `*.jsonl` and `session-*.json`,
 * recursively) or a quoted glob (import-paths.ts).
 *
 * Output: one result line per file on stdout (`--json`: one JSON document instead); skipped
 * malformed lines on stderr as `file:line: reason`, entries cut to 500,000 characters per text
 * as `file: line N (entry ID): …`; progress on stderr for files over 8 MB.
 * Each file is imported on its own: a failure prints `error: <file>: <what is wrong>` and the
 * other files still run; the exit code is then 2 (also for a folder or glob with no file). A lost
 * or unreachable database is a failure: exit 1. A session id that is already imported fails
 * unless `--as-copy` (a copy gets a new session id). Ctrl-C cancels and writes nothing.
 */
import { parseNodeArgs } from "@/cli/args";
import { type CliCommand, type CliIo, EXIT_OK, EXIT_USAGE, UsageError, writeJson } from "@/cli/command";
import { type DbRuntime, processDbRuntime, withDatabase } from "@/cli/commands/db-runtime";
import { expandImportPaths } from "@/cli/commands/import-paths";
import type { ImportProgress, ImportResult } from "@/lib/db";
import { FORMAT_LABELS } from "@/lib/formats/types";
import { describeKept, describeTruncation, truncationHeadline } from "@/lib/import-report";
import { formatBytes } from "@/lib/text/byte-size";

const PROGRESS_FROM_BYTES = 8 * 1024 * 1024;

function parse(argv: readonly string[]) {
  return parseNodeArgs(argv, { title: { type: "string" }, "as-copy": { type: "boolean" }, json: { type: "boolean" } });
}

/** At most one progress line per 10% (or per 16 MB when the size is unknown). */
function progressPrinter(io: CliIo, file: string): (p: ImportProgress) => void {
  let next = 0;
  return (p) => {
    const total = p.totalBytes;
    if (total !== undefined && total < PROGRESS_FROM_BYTES) return;
    if (p.bytes < next) return;
    const step = total ? total / 10 : 16 * 1024 * 1024;
    next = p.bytes + step;
    const share = total ? `${Math.floor((p.bytes / total) * 100)}% (${formatBytes(p.bytes)} of ${formatBytes(total)})` : formatBytes(p.bytes);
    io.err(`${file}: ${share}, ${p.entries} entries\n`);
  };
}

function resultLine(file: string, r: ImportResult): string {
  const parts = [`${FORMAT_LABELS[r.format]}, ${r.records} ${r.records === 1 ? "record" : "records"}`, `${r.entryCount} ${r.entryCount === 1 ? "entry" : "entries"}`];
  if (r.migrated) parts.push(`migrated from v${r.fromVersion}`);
  if (r.skippedCount > 0) parts.push(`${r.skippedCount} skipped ${r.skippedCount === 1 ? "line" : "lines"}`);
  if (r.truncatedCount > 0) parts.push(`${r.truncatedCount} cut ${r.truncatedCount === 1 ? "entry" : "entries"}`);
  const title = r.title ? ` "${r.title}"` : "";
  return `imported ${file} → ${r.sessionId}${title} (${parts.join(", ")})`;
}

export function makeImportCommand(runtime: DbRuntime = processDbRuntime): CliCommand {
  return {
    name: "import",
    summary: "import session files into the database",
    usage: [
      "import PATH… [--title T] [--as-copy] [--json]",
      "  Imports each session file: pi / oh-my-pi JSONL (v1–v3), Claude Code or Codex CLI sessions,",
      "  Gemini CLI recordings or opencode exports (the format is read from the content); prints",
      "  one line per file.",
      "  PATH is a FILE, a DIRECTORY (every *.jsonl and session-*.json below it, recursively) or a quoted GLOB",
      "  expanded by the CLI itself, e.g. 'sessions/**/*.jsonl' (no argument-list limit).",
      "  Thousands of file paths as arguments can pass the system's limit (E2BIG): npm then",
      "  exits 249 without a word, before the CLI starts. Name their folder or a glob instead.",
      "  --title T   the session's title (one file only); default: the file's title or first message",
      "  --as-copy   import a session that is already in the database again, under a new id",
      "  --json      print { imported: [...], failed: [...] } on stdout",
    ],
    async run(argv, io) {
      const { positionals, values } = parse(argv);
      if (positionals.length === 0) throw new UsageError("missing PATH (a session file, folder or quoted glob)");
      const files = await expandImportPaths(positionals);
      if (values.title !== undefined && files.length > 1) throw new UsageError(`--title applies to a single file; got ${files.length}`);
      const { importSession, ImportError } = await import("@/lib/db");
      const imported: (ImportResult & { file: string })[] = [];
      const failed: { file: string; code: string; message: string }[] = [];
      await withDatabase(runtime, async ({ signal }) => {
        for (const file of files) {
          if (signal.aborted) break;
          try {
            const r = await importSession({
              source: file,
              fileName: file,
              signal,
              onProgress: progressPrinter(io, file),
              ...(values.title !== undefined ? { title: values.title } : {}),
              ...(values["as-copy"] ? { asCopy: true } : {}),
            });
            imported.push({ file, ...r });
            for (const s of r.skipped) io.err(`${file}:${s.line}: ${s.reason}\n`);
            if (r.skippedCount > r.skipped.length) io.err(`${file}: … and ${r.skippedCount - r.skipped.length} more skipped lines\n`);
            const cut = truncationHeadline(r.truncatedCount);
            if (cut) io.err(`${file}: ${cut}:\n`);
            for (const t of r.truncated) io.err(`${file}: ${describeTruncation(t)}\n`);
            if (r.truncatedCount > r.truncated.length) io.err(`${file}: … and ${r.truncatedCount - r.truncated.length} more cut entries\n`);
            for (const n of r.repairs) io.err(`${file}:${n.line}: repaired: ${n.message}\n`);
            if (r.repairCount > r.repairs.length) io.err(`${file}: … and ${r.repairCount - r.repairs.length} more repaired lines\n`);
            const kept = describeKept(r.kept);
            if (kept) io.err(`${file}: ${kept}\n`);
            if (!values.json) io.out(`${resultLine(file, r)}\n`);
            for (const s of r.sidechains) io.out(`  with subagent session ${s.sessionId}${s.title ? ` "${s.title}"` : ""} (${s.entryCount} entries${s.existing ? ", already in Arbor" : ""})\n`);
          } catch (error) {
            if (!(error instanceof ImportError)) throw error;
            const hint = error.code === "exists" ? " (use --as-copy)" : "";
            failed.push({ file, code: error.code, message: error.message });
            io.err(`error: ${error.message}${hint}\n`);
          }
        }
      });
      if (values.json) writeJson(io, { imported, failed });
      return failed.length > 0 ? EXIT_USAGE : EXIT_OK;
    },
  };
}

export const importCommand = makeImportCommand();
