import "server-only";
/**
 * The entry point of lib/runs, the registry of running session operations (one turn,
 * compaction, navigation or tree edit per session at a time, across every app process on the
 * database): routes, actions and lib/chat claim, stop and wait for runs here (running.ts).
 * The registry's own connection (channel.ts), its advisory locks (locks.ts) and the Stop
 * requests between processes (stop.ts) stay inside; tests may import them directly.
 */
export { abortRun, BusyError, claimRun, claimRunPreempting, type RunHandle, type RunKind, runningKind, waitForRun, withRun } from "./running";
