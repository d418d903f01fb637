/**
 * Stepwise computations: a long pure pass written as a generator that yields at checkpoints,
 * so the same code runs to completion at once (`runSteps`, tests and small inputs) or in
 * slices that give the event loop back between them (`runSliced`, a browser opening a
 * 100k-entry session without a main-thread stall).
 * Pure: no network, disk or database access; `runSliced` only needs timers.
 *
 * Contract: a steps generator yields nothing meaningful (`undefined`) and returns its result.
 * Loops yield every CHECK_EVERY iterations (`if (tick(i)) yield;`), cheap enough that the
 * synchronous path costs the same as a plain loop.
 */

export type Steps<T> = Generator<void, T, void>;

/** Iterations between two checkpoints of a loop. */
export const CHECK_EVERY = 1024;

/** True on every CHECK_EVERY-th iteration (`i` counts from 0). */
export function tick(i: number): boolean {
  return (i & (CHECK_EVERY - 1)) === CHECK_EVERY - 1;
}

/** Runs steps to completion in the current task. */
export function runSteps<T>(steps: Steps<T>): T {
  let r = steps.next();
  while (!r.done) r = steps.next();
  return r.value;
}

export interface SliceOptions {
  /** Longest run of steps per task, in ms (the rest of the 50 ms long-task line is left to the page). */
  budgetMs?: number;
  /** Aborting stops at the next slice with `signal.reason`. */
  signal?: AbortSignal;
  /** Called after each slice (e.g. to report progress). */
  onSlice?: () => void;
}

/**
 * The one channel every slice resumes through, held by this module for its lifetime (a channel
 * made per call, referenced only by its own handler, can be collected with its message queued).
 * Resolvers run in the order their messages were posted. In Node the ports are unref'd so they
 * never keep a process alive.
 */
let channel: MessageChannel | null | undefined;
const resumers: (() => void)[] = [];

function sharedChannel(): MessageChannel | null {
  if (channel !== undefined) return channel;
  channel = typeof MessageChannel === "undefined" ? null : new MessageChannel();
  if (channel) {
    channel.port1.onmessage = () => resumers.shift()?.();
    for (const port of [channel.port1, channel.port2] as unknown as { unref?: () => void }[]) port.unref?.();
  }
  return channel;
}

/**
 * A safeguard: a slice's resumption never depends on one message alone. A timer resumes it
 * when the message has not come within this many ms. (It was added while chasing an e2e hang
 * of a 21k-entry session that turned out to be a refetch race and a stalled pulled response,
 * both fixed where they happen; it is kept because a build that never resumes is silent.)
 */
const RESUME_FALLBACK_MS = 50;

/**
 * A fresh task: a MessageChannel message, which (unlike nested timers) is not clamped to 4 ms,
 * or the fallback timer, whichever comes first. Resolves exactly once.
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(finish, RESUME_FALLBACK_MS);
    const ch = sharedChannel();
    if (!ch) return;
    resumers.push(finish);
    ch.port2.postMessage(null);
  });
}

/** Runs steps in slices of at most `budgetMs` (default 12), each in its own task. */
export async function runSliced<T>(steps: Steps<T>, opts: SliceOptions = {}): Promise<T> {
  const budget = opts.budgetMs ?? 12;
  const { signal } = opts;
  for (;;) {
    signal?.throwIfAborted();
    const end = performance.now() + budget;
    let r = steps.next();
    while (!r.done && performance.now() < end) r = steps.next();
    if (r.done) return r.value;
    opts.onSlice?.();
    await nextTask();
  }
}
