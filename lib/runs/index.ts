import "server-only";
/**
 * The entry point of lib/runs, the registry of running session operations (one turn,
 * compaction, navigation or tree edit per session at a time, across every app process on the
 * database): routes, actions and lib/chat claim, stop and wait for runs here (running.ts).
 * The registry's own connection (channel.ts), its advisory locks (locks.ts) and the Stop
 * requests between processes (stop.ts) stay inside; tests may import them directly.
 * The same connection also elects the one process that watches the synced folders
 * (watch-lock.ts) and keeps two syncs of one file apart (file-lock.ts).
 */
export { abortRun, BusyError, claimRun, claimRunPreempting, type RunHandle, type RunKind, runningKind, waitForRun, withRun } from "./running";
export { notifySessionListed, watchAllSessions, watchSession } from "./session-events";
export { closeRunChannel } from "./channel";
export { withFileLock } from "./file-lock";
export { type LockClient, releaseWatch, stillWatching, tryTakeWatch } from "./watch-lock";
