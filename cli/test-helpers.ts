/**
 * Helpers for the CLI tests: run the CLI in-process with captured output, or as a child
 * process exactly as a user would (`node --import tsx cli/main.ts …`). Not used by the CLI.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { runCli } from "@/cli/main";

export interface CliRun {
  code: number;
  out: string;
  err: string;
}

export const PROJECT_ROOT = path.resolve(import.meta.dirname, "..");

export async function runInProcess(argv: string[]): Promise<CliRun> {
  let out = "";
  let err = "";
  const code = await runCli(argv, {
    out: (t) => {
      out += t;
    },
    err: (t) => {
      err += t;
    },
  });
  return { code, out, err };
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
