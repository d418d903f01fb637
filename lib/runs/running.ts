import "server-only";
/**
 * The registry of running session operations: at most one turn, manual compaction, navigation
 * or tree edit per session at a time — in this process AND across every app process on the same
 * database. The single entry point: routes and actions use only this module.
 *
 * Contract:
 * - `claimRun(sessionId, kind)` takes the session's slot or rejects with BusyError, whose message
 *   says what is running ("A turn is already running in this session"); routes answer it with a
 *   409. The in-process slot is reserved synchronously, before the first await, so two requests
 *   of one process can never both load the tree and race on the store; then the slot is taken
 *   across processes (lib/runs/locks.ts: an advisory lock on this process's registry
 *   connection). A slot held by another process gives the same BusyError with ITS kind.
 * - `preempt: ["turn"]` first stops a running turn and waits for it (session-engine.md §13.4 step 1: a
 *   manual compaction aborts the running turn) — here or in another process (then for at most
 *   PREEMPT_WAIT_MS); anything else still makes it busy.
 * - Every run owns an AbortController; `abortRun(sessionId)` (the Stop button) aborts it and
 *   says whether something was stopped. A run of another process is asked over NOTIFY
 *   (lib/runs/stop.ts) and counts as stopped once that process answered (≤ 2 s). Tree edits
 *   ("edit") are short and cannot be stopped.
 * - `handle.finish()` releases the slot (idempotent); `waitForRun` and `runningKind` are about
 *   this process's runs. The map lives on globalThis so every route bundle (and dev-server
 *   reloads) of one process sees the same runs.
 *
 * When the database is unreachable: a claim rejects with DatabaseUnavailableError (the route's
 * 503 — the operation could not load its session anyway); Stop still stops a run of this
 * process, and answers 503 only when it has to ask the others. When the registry connection is
 * lost DURING a run, the server drops its locks: the run goes on, the lock is taken again on
 * reconnect, and in between the store's optimistic leaf check keeps a second writer from
 * another process from corrupting the tree (one of them gets ConflictError). With no database
 * configured at all, nothing can be shared: the registry is then this process's alone.
 */
import { connectedRunClient, onRunReconnect, runDatabaseConfigured, setRunChannelDemand } from "./channel";
import { lockHolder, type RunKind, tryLockSession, unlockSession } from "./locks";
import { type LocalStop, requestRunStop, serveRunStops } from "./stop";

export type { RunKind } from "./locks";

/** How long a preempting claim waits for another process's turn to end after stopping it. */
export const PREEMPT_WAIT_MS = 10_000;
const PREEMPT_POLL_MS = 50;

const BUSY_MESSAGES: Record<RunKind, string> = {
  turn: "A turn is already running in this session",
  compaction: "A compaction is already running in this session",
  navigation: "A navigation is already running in this session",
  edit: "This session is being updated; try again in a moment",
};

export class BusyError extends Error {
  override name = "BusyError";
  readonly running: RunKind;
  constructor(running: RunKind) {
    super(BUSY_MESSAGES[running]);
    this.running = running;
  }
}

export interface RunHandle {
  readonly sessionId: string;
  readonly kind: RunKind;
  /** Aborted by abortRun (Stop), from this process or another. */
  readonly signal: AbortSignal;
  /** Resolves when the run has finished. */
  readonly done: Promise<void>;
  finish(): void;
}

interface Run extends RunHandle {
  readonly controller: AbortController;
  /** This process holds the session's advisory lock for the run. */
  locked: boolean;
}

const KEY = Symbol.for("arbor.chat.runs");
type Global = typeof globalThis & { [KEY]?: Map<string, Run> };

function runs(): Map<string, Run> {
  const g = globalThis as Global;
  g[KEY] ??= new Map();
  return g[KEY];
}

function releaseLock(run: Run): void {
  if (!run.locked) return;
  run.locked = false;
  // No client: the connection was lost, and the server dropped the lock with it.
  const client = connectedRunClient();
  if (!client) return;
  unlockSession(client, run.sessionId, run.kind).catch((error: unknown) => {
    // A connection closed or lost meanwhile took the lock with it.
    if (connectedRunClient() !== client) return;
    console.warn(`arbor: session ${run.sessionId}: releasing the run lock failed: ${String(error)}`);
  });
}

/** Reserves the session in this process (synchronously). */
function start(sessionId: string, kind: RunKind): Run {
  const controller = new AbortController();
  let release = () => {};
  const done = new Promise<void>((resolve) => {
    release = resolve;
  });
  const run: Run = {
    sessionId,
    kind,
    controller,
    signal: controller.signal,
    done,
    locked: false,
    finish() {
      if (runs().get(sessionId) === run) runs().delete(sessionId);
      releaseLock(run);
      release();
    },
  };
  runs().set(sessionId, run);
  return run;
}

/** Aborts this process's run of the session, if it has one that can be stopped. */
function abortLocal(sessionId: string): LocalStop {
  const current = runs().get(sessionId);
  if (!current) return "not_running";
  if (current.kind === "edit" || current.signal.aborted) return "not_stoppable";
  current.controller.abort();
  return "stopped";
}

serveRunStops(abortLocal);
setRunChannelDemand(() => [...runs().values()].some((r) => r.locked));
onRunReconnect("running", (client) => {
  for (const run of runs().values()) {
    if (!run.locked) continue;
    tryLockSession(run.sessionId, run.kind, client).then(
      (ok) => {
        if (!ok) {
          run.locked = false;
          console.warn(`arbor: session ${run.sessionId}: another process claimed it while the database was away; this run goes on`);
        }
      },
      () => undefined, // lost again: the next reconnect retries
    );
  }
});

/**
 * Takes the cross-process lock for a freshly reserved run. Undefined when taken; else the kind
 * another process runs (the reservation is then released). Rejects (and releases) on a lost database.
 */
async function lockAcrossProcesses(run: Run): Promise<RunKind | undefined> {
  if (!runDatabaseConfigured()) return undefined;
  try {
    // A holder that lets go between the two queries: try again (a few times) rather than call it busy.
    for (let attempt = 0; attempt < 3; attempt++) {
      if (await tryLockSession(run.sessionId, run.kind)) {
        // finish() may have run meanwhile (a local preempt aborted and ended it): then unlock now.
        run.locked = true;
        if (runs().get(run.sessionId) !== run) releaseLock(run);
        return undefined;
      }
      const holder = await lockHolder(run.sessionId);
      if (holder) {
        run.finish();
        // Kind not readable (the holder is between its two lock calls): the most general message.
        return holder.kind ?? "edit";
      }
    }
    run.finish();
    return "edit";
  } catch (error) {
    run.finish();
    throw error;
  }
}

/** Takes the session's slot now, or rejects with BusyError. */
export async function claimRun(sessionId: string, kind: RunKind): Promise<RunHandle> {
  const current = runs().get(sessionId);
  if (current) throw new BusyError(current.kind);
  const run = start(sessionId, kind);
  const elsewhere = await lockAcrossProcesses(run);
  if (elsewhere) throw new BusyError(elsewhere);
  return run;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Like claimRun, but first stops and awaits running operations of the `preempt` kinds. */
export async function claimRunPreempting(
  sessionId: string,
  kind: RunKind,
  preempt: readonly RunKind[],
): Promise<RunHandle> {
  let deadline: number | undefined;
  for (;;) {
    const current = runs().get(sessionId);
    if (current) {
      if (!preempt.includes(current.kind)) throw new BusyError(current.kind);
      current.controller.abort();
      await current.done;
      continue;
    }
    const run = start(sessionId, kind);
    const elsewhere = await lockAcrossProcesses(run);
    if (!elsewhere) return run;
    if (!preempt.includes(elsewhere)) throw new BusyError(elsewhere);
    if (deadline === undefined) {
      deadline = Date.now() + PREEMPT_WAIT_MS;
      await requestRunStop(sessionId);
    } else if (Date.now() > deadline) {
      throw new BusyError(elsewhere);
    } else {
      await sleep(PREEMPT_POLL_MS);
    }
  }
}

/** Runs `fn` while holding the session's slot. */
export async function withRun<T>(sessionId: string, kind: RunKind, fn: (run: RunHandle) => Promise<T>): Promise<T> {
  const run = await claimRun(sessionId, kind);
  try {
    return await fn(run);
  } finally {
    run.finish();
  }
}

/**
 * Stops the session's running turn, compaction or navigation, in this process or another; true
 * if one was running. Rejects with DatabaseUnavailableError only when it had to ask the others.
 */
export async function abortRun(sessionId: string): Promise<boolean> {
  const here = abortLocal(sessionId);
  // Running here (stopped now, or an edit / already stopped): nobody else can hold it.
  if (here !== "not_running") return here === "stopped";
  if (!runDatabaseConfigured()) return false;
  const holder = await lockHolder(sessionId);
  if (!holder || holder.kind === "edit") return false;
  return requestRunStop(sessionId);
}

/** What runs in the session in this process, if anything. */
export function runningKind(sessionId: string): RunKind | undefined {
  return runs().get(sessionId)?.kind;
}

/** Resolves when nothing runs in the session in this process any more. */
export async function waitForRun(sessionId: string): Promise<void> {
  for (let current = runs().get(sessionId); current; current = runs().get(sessionId)) await current.done;
}
