/**
 * Abort helpers for the agent: an abortable sleep (the default `Sleep` port) and child
 * controllers that follow a parent signal. No I/O; timers only.
 */

/** The error a cancelled wait rejects with. */
export function abortError(signal?: AbortSignal): Error {
  const reason: unknown = signal?.reason;
  if (reason instanceof Error) return reason;
  const err = new Error("Aborted");
  err.name = "AbortError";
  return err;
}

/** Resolves after `ms`; rejects at once when `signal` is (or becomes) aborted. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError(signal));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

export interface LinkedController {
  controller: AbortController;
  /** Stops following the parents (call when the child's work is done). */
  unlink(): void;
}

/** A controller that aborts when any of `parents` does (already-aborted parents abort it now). */
export function linkedController(...parents: (AbortSignal | undefined)[]): LinkedController {
  const controller = new AbortController();
  const cleanups: (() => void)[] = [];
  for (const parent of parents) {
    if (!parent) continue;
    if (parent.aborted) {
      controller.abort(parent.reason);
      break;
    }
    const onAbort = () => controller.abort(parent.reason);
    parent.addEventListener("abort", onAbort, { once: true });
    cleanups.push(() => parent.removeEventListener("abort", onAbort));
  }
  return {
    controller,
    unlink: () => {
      for (const cleanup of cleanups) cleanup();
    },
  };
}
