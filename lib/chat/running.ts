import "server-only";
/**
 * The per-process registry of running session operations: at most one turn, manual
 * compaction, navigation or tree edit per session at a time.
 *
 * Contract:
 * - `claimRun(sessionId, kind)` takes the session's slot synchronously (so two requests cannot
 *   both load the tree and race on the store) or throws BusyError, whose message says what is
 *   running ("A turn is already running in this session"); routes answer it with a 409.
 * - `preempt: ["turn"]` first stops a running turn and waits for it (spec §13.4 step 1: a
 *   manual compaction aborts the running turn); anything else still makes it busy.
 * - Every run owns an AbortController; `abortRun(sessionId)` (the Stop button) aborts it and
 *   says whether something was stopped. Tree edits ("edit") are short and cannot be stopped.
 * - `handle.finish()` releases the slot (idempotent); `waitForRun` resolves once the session
 *   is idle. The map lives on globalThis so every route bundle (and dev-server reloads) of one
 *   process sees the same runs.
 */

export type RunKind = "turn" | "compaction" | "navigation" | "edit";

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
  /** Aborted by abortRun (Stop). */
  readonly signal: AbortSignal;
  /** Resolves when the run has finished. */
  readonly done: Promise<void>;
  finish(): void;
}

interface Run extends RunHandle {
  readonly controller: AbortController;
}

const KEY = Symbol.for("arbor.chat.runs");
type Global = typeof globalThis & { [KEY]?: Map<string, Run> };

function runs(): Map<string, Run> {
  const g = globalThis as Global;
  g[KEY] ??= new Map();
  return g[KEY];
}

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
    finish() {
      if (runs().get(sessionId) === run) runs().delete(sessionId);
      release();
    },
  };
  runs().set(sessionId, run);
  return run;
}

/** Takes the session's slot now, or throws BusyError. */
export function claimRun(sessionId: string, kind: RunKind): RunHandle {
  const current = runs().get(sessionId);
  if (current) throw new BusyError(current.kind);
  return start(sessionId, kind);
}

/** Like claimRun, but first stops and awaits running operations of the `preempt` kinds. */
export async function claimRunPreempting(
  sessionId: string,
  kind: RunKind,
  preempt: readonly RunKind[],
): Promise<RunHandle> {
  for (;;) {
    const current = runs().get(sessionId);
    if (!current) return start(sessionId, kind);
    if (!preempt.includes(current.kind)) throw new BusyError(current.kind);
    current.controller.abort();
    await current.done;
  }
}

/** Runs `fn` while holding the session's slot. */
export async function withRun<T>(sessionId: string, kind: RunKind, fn: (run: RunHandle) => Promise<T>): Promise<T> {
  const run = claimRun(sessionId, kind);
  try {
    return await fn(run);
  } finally {
    run.finish();
  }
}

/** Stops the session's running turn, compaction or navigation; true if one was running. */
export function abortRun(sessionId: string): boolean {
  const current = runs().get(sessionId);
  if (!current || current.kind === "edit" || current.signal.aborted) return false;
  current.controller.abort();
  return true;
}

export function runningKind(sessionId: string): RunKind | undefined {
  return runs().get(sessionId)?.kind;
}

/** Resolves when nothing runs in the session any more. */
export async function waitForRun(sessionId: string): Promise<void> {
  for (let current = runs().get(sessionId); current; current = runs().get(sessionId)) await current.done;
}
