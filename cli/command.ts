/**
 * Shared CLI plumbing: the command interface, the error type that maps to an exit code, and
 * the output sink. Commands never touch `process` directly, so they run in-process in tests.
 */

/** Where a command writes. `out` is stdout (data), `err` is stderr (diagnostics). */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

/** Exit codes: 0 ok, 1 unexpected failure, 2 bad usage or bad input (file, option, id). */
export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/** An expected failure: printed as one `error: …` line on stderr, then exit `exitCode`. */
export class CliError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode: number = EXIT_USAGE) {
    super(message);
    this.name = "CliError";
    this.exitCode = exitCode;
  }
}

/** A problem with the command line itself (unknown option, missing argument …). */
export class UsageError extends CliError {
  constructor(message: string) {
    super(message, EXIT_USAGE);
    this.name = "UsageError";
  }
}

export interface CliCommand {
  name: string;
  /** One line for the command list in `help`. */
  summary: string;
  /** Usage lines (first line: the synopsis, without the program name). */
  usage: string[];
  /** Runs with the arguments after the command name; returns the exit code. */
  run(argv: readonly string[], io: CliIo): number | Promise<number>;
}

/** `--json` output: exactly one JSON document on stdout. */
export function writeJson(io: CliIo, value: unknown): void {
  io.out(`${JSON.stringify(value, null, 2)}\n`);
}
