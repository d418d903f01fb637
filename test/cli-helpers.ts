/**
 * Helpers for the CLI tests: run the CLI (or one command) in-process with captured output, or
 * as a child process exactly as a user would (`node --import tsx cli/main.ts …`). Not used by
 * the CLI.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { CliCommand, CliIo } from "@/cli/command";
import { runCli } from "@/cli/main";

export interface CliRun {
  code: number;
  out: string;
  err: string;
}

export const PROJECT_ROOT = path.resolve(import.meta.dirname, "..");

/** Runs `run` with an io that collects stdout and stderr; resolves with the exit code and both. */
async function captured(run: (io: CliIo) => number | Promise<number>): Promise<CliRun> {
  let out = "";
  let err = "";
  const code = await run({
    out: (t) => {
      out += t;
    },
    err: (t) => {
      err += t;
    },
  });
  return { code, out, err };
}

/** The whole CLI (argument dispatch included), in-process, with captured output. */
export function runInProcess(argv: string[]): Promise<CliRun> {
  return captured((io) => runCli(argv, io));
}

/** One command, in-process, with captured output (e.g. a command built with a test runtime). */
export function runCommand(cmd: CliCommand, argv: readonly string[]): Promise<CliRun> {
  return captured((io) => cmd.run(argv, io));
}

/** Spawns the real CLI; resolves with its exit code and output (never rejects on exit ≠ 0). */
export function runProcess(argv: string[]): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--import", "tsx", "cli/main.ts", ...argv],
      { cwd: PROJECT_ROOT, maxBuffer: 256 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        resolve({ code, out: stdout, err: stderr });
      },
    );
  });
}

/** A fresh temp directory and a writer for files inside it. */
export function tempDir(): { dir: string; write(name: string, text: string): string } {
  const dir = mkdtempSync(path.join(tmpdir(), "arbor-cli-"));
  return {
    dir,
    write(name, text) {
      const file = path.join(dir, name);
      writeFileSync(file, text);
      return file;
    },
  };
}
