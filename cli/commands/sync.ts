/**
 * `sync DIR… [--watch] [--json]`: keeps folders of session files in sync with the database
 * (lib/sync): new files are imported, new lines of imported files appended, rewritten files
 * imported again as a new version; files deleted from a folder stay in Arbor.
 *
 * Output: one line per file that changed, `path: what happened` (`--json`: one JSON document
 * `{ folders, files: [{ file, outcome }], counts }` instead; not with --watch); unchanged files
 * are counted in the closing summary line on stderr; progress on stderr for files over 8 MB.
 * `--watch` keeps running after the first sync and prints each change as it is synced, until
 * Ctrl-C. Ctrl-C during an import cancels it (nothing of that file is written). Exit 2 when a
 * file failed (its line says why; the other files still sync) or a folder does not exist.
 * The CLI is not limited to ARBOR_ALLOWED_ROOTS (that limit is the web page's): it runs as the
 * user, who can read the folder anyway.
 */
import { parseNodeArgs } from "@/cli/args";
import { type CliCommand, type CliIo, CliError, EXIT_FAILURE, EXIT_OK, EXIT_USAGE, UsageError, writeJson } from "@/cli/command";
import { type DbRuntime, processDbRuntime, withDatabase } from "@/cli/commands/db-runtime";
import type { FileOutcome } from "@/lib/types/sync-events";
import type { SyncEvent, SyncSummary } from "@/lib/sync/sync-folders";
import { errorText } from "@/lib/text/error-text";

const PROGRESS_FROM_BYTES = 8 * 1024 * 1024;

function printer(io: CliIo, say: (o: FileOutcome, file: string) => string) {
  let nextProgress = 0;
  return (e: SyncEvent) => {
    if (e.type === "start") nextProgress = 0;
    else if (e.type === "progress") {
      if (!e.totalBytes || e.totalBytes < PROGRESS_FROM_BYTES || e.bytes < nextProgress) return;
      nextProgress = e.bytes + e.totalBytes / 10;
      io.err(`${e.file}: ${Math.floor((e.bytes / e.totalBytes) * 100)}%, ${e.entries} entries\n`);
    } else if (e.outcome.kind !== "unchanged") {
      const line = `${e.file}: ${say(e.outcome, e.file)}\n`;
      if (e.outcome.kind === "failed") io.err(line);
      else io.out(line);
    }
  };
}

function summaryLine(s: SyncSummary): string {
  const c = s.counts;
  const parts = [`${c.imported} imported`, `${c.appended} appended`, `${c.rewritten} new versions`, `${c.unchanged} unchanged`];
  if (c.waiting) parts.push(`${c.waiting} waiting`);
  if (c.gone) parts.push(`${c.gone} deleted from the folder (kept in Arbor)`);
  if (c.failed) parts.push(`${c.failed} failed`);
  return `synced ${s.files.length} ${s.files.length === 1 ? "file" : "files"}: ${parts.join(", ")}\n`;
}

export function makeSyncCommand(runtime: DbRuntime = processDbRuntime): CliCommand {
  return {
    name: "sync",
    summary: "keep folders of session files in sync with the database",
    usage: [
      "sync DIR… [--watch] [--json]",
      "  Imports every session file below each DIR (*.jsonl: pi / oh-my-pi, Claude Code, Codex CLI,",
      "  subagent files included; Gemini CLI session-*.json; opencode's storage sessions) that is not",
      "  imported yet, and appends only the new lines (or messages) of files imported before.",
      "  A file that was rewritten rather than appended is imported again as a new version; a file",
      "  deleted from the folder stays in Arbor. A line cut at the end is taken on the next sync.",
      "  --watch   keep following the folders and sync each change as it happens (Ctrl-C stops)",
      "  --json    print { folders, files: [{ file, outcome }], counts } on stdout (not with --watch)",
    ],
    async run(argv, io) {
      const { positionals, values } = parseNodeArgs(argv, { watch: { type: "boolean" }, json: { type: "boolean" } });
      if (positionals.length === 0) throw new UsageError("missing DIR (a folder of session files)");
      if (values.watch && values.json) throw new UsageError("--json cannot be used with --watch");
      const { syncFolders, describeOutcome, realFolder, SyncFolderError } = await import("@/lib/sync/sync-folders");
      for (const dir of positionals) {
        await realFolder(dir).catch((error: unknown) => {
          throw error instanceof SyncFolderError ? new CliError(error.message) : error;
        });
      }
      const onEvent = printer(io, describeOutcome);
      return withDatabase(runtime, async ({ signal }) => {
        if (!values.watch) {
          const summary = await syncFolders(positionals, { signal, ...(values.json ? {} : { onEvent }) }).catch((error: unknown) => {
            if (signal.aborted) throw new CliError("sync cancelled; the file being imported was not saved (files synced before it are)", EXIT_FAILURE);
            throw error;
          });
          if (values.json) writeJson(io, summary);
          else io.err(summaryLine(summary));
          return summary.counts.failed > 0 ? EXIT_USAGE : EXIT_OK;
        }
        const { watchFolders } = await import("@/lib/sync/watch");
        const watcher = await watchFolders(positionals, {
          signal,
          onEvent,
          onRun: (s, kind) => {
            if (kind === "initial") io.err(`${summaryLine(s)}watching ${s.folders.join(", ")} for changes; Ctrl-C stops\n`);
          },
          onError: (error) => io.err(`error: ${errorText(error)}\n`),
        });
        await watcher.ready;
        await new Promise<void>((resolve) => {
          if (signal.aborted) resolve();
          else signal.addEventListener("abort", () => resolve(), { once: true });
        });
        await watcher.stop();
        return EXIT_OK;
      });
    },
  };
}

export const syncCommand = makeSyncCommand();
