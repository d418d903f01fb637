/**
 * Turn retries (session-engine.md §13.5): what happens after a run whose last assistant message failed with
 * a transient provider error.
 *
 * Contract:
 * - Retryable = stopReason "error", not an overflow (§14; compaction handles those) and the
 *   message matches the retryable pattern (`isRetryableError`).
 * - attempt++; past `retry.maxRetries` → auto_retry_end { success:false, attempt: attempt-1,
 *   finalError } and no retry. Otherwise delayMs = baseDelayMs · 2^(attempt-1), raised to the
 *   provider's retry-after (`parseRetryAfter`) when that is longer (as pi does), then
 *   auto_retry_start, the error assistant is dropped from the working context (it stays
 *   stored), and the wait — abortable — precedes a continue with no new user message.
 * - An abort during the wait → auto_retry_end { success:false, attempt, finalError:
 *   "Retry cancelled" }.
 * - The first assistant that finishes without error or abort → auto_retry_end
 *   { success:true, attempt } and the counter resets.
 * - Decisions (spec open): an aborted message in a retry sequence ends it as "Retry
 *   cancelled"; a non-retryable error in a retry sequence ends it as a failure with that
 *   error. Either way no retry sequence is left dangling.
 */
import type { AgentRuntime } from "@/lib/agent/runtime";
import { isRetryableError, parseRetryAfter } from "@/lib/compaction/overflow";
import type { AssistantMessage } from "@/lib/session/types";

export const RETRY_CANCELLED = "Retry cancelled";

export type RetryOutcome = "retry" | "cancelled" | "none";

async function endSequence(rt: AgentRuntime, success: boolean, attempt: number, finalError?: string): Promise<void> {
  rt.state.retryAttempt = 0;
  await rt.lifecycle(
    finalError === undefined
      ? { type: "auto_retry_end", success, attempt }
      : { type: "auto_retry_end", success, attempt, finalError },
  );
}

export async function handleTurnRetry(rt: AgentRuntime, msg: AssistantMessage, signal: AbortSignal): Promise<RetryOutcome> {
  const { retry } = rt.settings;
  const current = rt.state.retryAttempt;

  if (msg.stopReason !== "error") {
    if (current > 0) {
      if (msg.stopReason === "aborted") await endSequence(rt, false, current, RETRY_CANCELLED);
      else await endSequence(rt, true, current);
    }
    return "none";
  }

  const errorText = msg.errorMessage ?? "";
  if (!retry.enabled || !isRetryableError(msg, rt.model?.info.contextWindow)) {
    if (current > 0) await endSequence(rt, false, current, errorText);
    return "none";
  }

  const attempt = current + 1;
  if (attempt > retry.maxRetries) {
    await endSequence(rt, false, attempt - 1, errorText);
    return "none";
  }
  rt.state.retryAttempt = attempt;

  let delayMs = retry.baseDelayMs * 2 ** (attempt - 1);
  const retryAfterMs = parseRetryAfter(errorText);
  if (retryAfterMs !== undefined) delayMs = Math.max(delayMs, retryAfterMs);

  await rt.lifecycle({ type: "auto_retry_start", attempt, maxAttempts: retry.maxRetries, delayMs, errorMessage: errorText });
  rt.working.dropTrailingAssistant();
  try {
    await rt.sleep(delayMs, signal);
  } catch (err) {
    if (!signal.aborted) throw err;
  }
  if (signal.aborted) {
    await endSequence(rt, false, attempt, RETRY_CANCELLED);
    return "cancelled";
  }
  return "retry";
}
