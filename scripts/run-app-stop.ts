/**
 * How the launcher (scripts/run-app.ts) stops, in every state:
 * - before the database is started: at once;
 * - while the database starts: once it is ready, it is stopped (it cannot be stopped half-way);
 * - while Next runs: SIGTERM to Next, wait for it (at most NEXT_GRACE_MS, then SIGKILL), stop the
 *   database, exit with the signal's code;
 * - when Next exits on its own (killed by a signal, crashed): stop the database, exit with Next's
 *   code, 128 + the signal's number when it was killed — never wait for an `exit` event that has
 *   already fired;
 * - a second SIGINT/SIGTERM while stopping kills Next at once.
 * Next is not put in a process group of its own: `next dev` may use the terminal (its prompts),
 * which a background group may not. Its forked server exits with it (scripts/server-exit.cjs).
 */
import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import { constants } from "node:os";

const NEXT_GRACE_MS = 10_000;

export interface Stopper {
  stop(code: number): void;
  databaseStarting(): void;
  databaseReady(stopDatabase: () => Promise<void> | undefined): void;
  /** Starts Next with `start`, unless a stop was asked meanwhile. */
  nextStarted(start: () => ChildProcess): void;
}

function running(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

export function createStopper(): Stopper {
  let code: number | undefined;
  let starting = false;
  let stopDatabase: (() => Promise<void> | undefined) | undefined;
  let next: ChildProcess | undefined;

  const finish = async (exitCode: number): Promise<void> => {
    if (next && running(next)) {
      const exited = once(next, "exit");
      next.kill("SIGTERM");
      const timer = setTimeout(() => next?.kill("SIGKILL"), NEXT_GRACE_MS);
      await exited;
      clearTimeout(timer);
    }
    await stopDatabase?.();
    process.exit(exitCode);
  };

  const stop = (exitCode: number) => {
    if (code !== undefined) {
      if (next && running(next)) next.kill("SIGKILL"); // asked twice: do not wait for Next
      return;
    }
    code = exitCode;
    if (!starting) void finish(exitCode);
  };

  return {
    stop,
    databaseStarting() {
      starting = true;
    },
    databaseReady(fn) {
      starting = false;
      stopDatabase = fn;
      if (code !== undefined) void finish(code);
    },
    nextStarted(start) {
      if (code !== undefined) return;
      const child = start();
      next = child;
      child.on("error", (error) => {
        console.error(`arbor: Next.js could not be started: ${error.message}`);
        stop(1);
      });
      child.on("exit", (exitCode, signal) => {
        if (code !== undefined) return;
        const why = signal ? `was killed by ${signal}` : `exited with code ${exitCode}`;
        if (signal || exitCode !== 0) console.error(`arbor: Next.js ${why}; stopping the database`);
        stop(exitCode ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0));
      });
    },
  };
}
