import "server-only";
/**
 * The overall time budget of an import (lib/db/import/import.ts). The budget's signal is what the
 * import checks between chunks and lines and what ends a wait for a stalled upload
 * (LineReader), so a slow or stuck source cannot keep an import (and its open transaction)
 * alive past the budget. Its abort reason is the LimitError the user sees.
 */
import { LimitError } from "../errors";

/**
 * A signal that aborts with a "too_slow" LimitError once `ms` have passed, or with the caller's
 * reason when `outer` aborts first. `stop` clears the timer.
 */
export function timeBudget(file: string, ms: number, outer: AbortSignal | undefined): { signal: AbortSignal; stop: () => void } {
  const controller = new AbortController();
  const seconds = ms / 1000;
  const timer = setTimeout(() => {
    controller.abort(
      new LimitError({
        code: "too_slow",
        file,
        limit: ms,
        message: `${file}: the import took longer than its ${seconds.toLocaleString("en-US")} s time budget and was stopped; nothing was saved (split the file, or check that the upload is not stalled)`,
      }),
    );
  }, ms);
  timer.unref?.();
  const onOuter = () => controller.abort(outer?.reason);
  if (outer?.aborted) onOuter();
  else outer?.addEventListener("abort", onOuter, { once: true });
  return {
    signal: controller.signal,
    stop: () => {
      clearTimeout(timer);
      outer?.removeEventListener("abort", onOuter);
    },
  };
}

