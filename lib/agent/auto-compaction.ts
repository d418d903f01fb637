/**
 * runAutoCompaction(reason, willRetry) — session-engine.md §13.3, every step.
 *
 * 1. auto_compaction_start; abort any auto-compaction still running; new AbortController
 *    (linked to the run's signal, so aborting the turn aborts the compaction too).
 * 2. No model, no available model, or nothing to prepare → auto_compaction_end (no result).
 * 3–4. Hooks (compaction-steps.ts): cancel → end { aborted: true }.
 * 5–6. Candidates (model-candidates.ts), each with its own retries: delay = baseDelayMs · 2^attempt
 *    raised to retry-after; a delay over 30 s moves on when another candidate remains. All
 *    failed → the last error, or "Compaction failed: no available model".
 * 7. Aborted → end { aborted: true }.
 * 8. Append, commit, session_compact, auto_compaction_end { result, willRetry }.
 * 9. Then: threshold + autoContinue → the synthetic "Continue if you have next steps."; overflow
 *    (willRetry) → drop a trailing error assistant and continue after 100 ms; otherwise queued
 *    messages continue after 100 ms.
 * 10. Failure → end with `Context overflow recovery failed: …` / `Auto-compaction failed: …`.
 *
 * Decision (spec open): when the check ran BEFORE a user prompt (§13.1), step 9 continues
 * nothing (`allowContinue: false`) — the user's prompt that follows is the continuation.
 * A store ConflictError is reported like any failure and then rethrown, so it surfaces.
 */
import { linkedController } from "@/lib/agent/abort";
import { errorText } from "@/lib/text/error-text";
import { compactionCandidates } from "@/lib/agent/model-candidates";
import { isConflictError, type SummaryTextListener } from "@/lib/agent/ports";
import { type CompactionPlan, compactOptions, runCompactionHooks, storeCompaction } from "@/lib/agent/compaction-steps";
import type { AgentRuntime, NextAction } from "@/lib/agent/runtime";
import { compact } from "@/lib/compaction/compact";
import { type CompactionPreparation, prepareCompaction } from "@/lib/compaction/prepare";
import type { CompactionResult } from "@/lib/compaction/summarize-types";
import { pinnedIds } from "@/lib/session/pins";
import { isRetryableErrorMessage, parseRetryAfter } from "@/lib/compaction/overflow";
import { CONTINUATION_DELAY_MS, MAX_RETRY_DELAY_MS } from "@/lib/settings/schema";

export const CONTINUE_PROMPT = "Continue if you have next steps.";
export const NO_AVAILABLE_MODEL = "Compaction failed: no available model";

export type AutoCompactionReason = "threshold" | "overflow";

export interface AutoCompactionOptions {
  /** The run's signal. */
  signal: AbortSignal;
  /** False when a user prompt follows at once (the pre-prompt check). */
  allowContinue: boolean;
}

export async function runAutoCompaction(
  rt: AgentRuntime,
  reason: AutoCompactionReason,
  willRetry: boolean,
  opts: AutoCompactionOptions,
): Promise<NextAction | undefined> {
  await rt.lifecycle({ type: "auto_compaction_start", reason });
  rt.state.autoCompaction?.abort();
  const { controller, unlink } = linkedController(opts.signal);
  rt.state.autoCompaction = controller;
  try {
    const compacted = await compactOnce(rt, reason, willRetry, controller.signal);
    return compacted ? await nextAfterCompaction(rt, willRetry, opts) : undefined;
  } finally {
    unlink();
    if (rt.state.autoCompaction === controller) rt.state.autoCompaction = undefined;
  }
}

/** Steps 2–8 and 10; true when a compaction was stored. */
async function compactOnce(
  rt: AgentRuntime,
  reason: AutoCompactionReason,
  willRetry: boolean,
  signal: AbortSignal,
): Promise<boolean> {
  const model = rt.model;
  const available = model ? await rt.models.listAvailable() : [];
  const branch = rt.tree.getBranch();
  const preparation = model && available.length > 0 ? prepareCompaction(branch, rt.settings.compaction, { pinnedIds: pinnedIds(rt.tree.getEntries()) }) : undefined;
  if (!preparation) {
    await rt.lifecycle({ type: "auto_compaction_end", result: undefined, aborted: false, willRetry: false });
    return false;
  }

  rt.emit({ type: "compaction_start", reason });
  const aborted = async () => {
    rt.emit({ type: "compaction_end", reason, aborted: true });
    await rt.lifecycle({ type: "auto_compaction_end", result: undefined, aborted: true, willRetry: false });
    return false;
  };
  try {
    const plan = await runCompactionHooks(rt, preparation, branch, undefined, signal);
    if (plan.cancelled) return await aborted();
    const result = plan.hookCompaction ?? (await compactWithCandidates(rt, preparation, plan, signal));
    if (signal.aborted) return await aborted();
    const stored = await storeCompaction(rt, result, plan);
    rt.emit({ type: "compaction_end", reason, result: stored.result, entryId: stored.entry.id, aborted: false });
    await rt.lifecycle({ type: "auto_compaction_end", result: stored.result, aborted: false, willRetry });
    return true;
  } catch (err) {
    if (signal.aborted) return await aborted();
    const message = errorText(err) || "compaction failed";
    const text =
      reason === "overflow" ? `Context overflow recovery failed: ${message}` : `Auto-compaction failed: ${message}`;
    rt.emit({ type: "compaction_end", reason, aborted: false, errorMessage: text });
    await rt.lifecycle({ type: "auto_compaction_end", result: undefined, aborted: false, willRetry: false, errorMessage: text });
    if (isConflictError(err)) throw err;
    return false;
  }
}

/** Steps 5–6: every candidate model, each with its own retry budget. */
async function compactWithCandidates(
  rt: AgentRuntime,
  preparation: CompactionPreparation,
  plan: CompactionPlan,
  signal: AbortSignal,
): Promise<CompactionResult> {
  const candidates = await compactionCandidates(rt.model, rt.settings.modelRoles, rt.models);
  const { retry } = rt.settings;
  const onText: SummaryTextListener = (kind, delta) => rt.emit({ type: "compaction_summary_delta", kind, delta });
  let lastError: unknown;
  for (let i = 0; i < candidates.length; i++) {
    const candidate = candidates[i]!;
    const summarize = rt.summarizer(candidate, onText);
    for (let attempt = 0; ; ) {
      try {
        return await compact(preparation, { summarize, prompts: rt.prompts }, compactOptions(plan, signal));
      } catch (err) {
        if (signal.aborted) throw err;
        const message = errorText(err);
        const retryAfterMs = parseRetryAfter(message);
        const retryable =
          retry.enabled &&
          attempt < retry.maxRetries &&
          (retryAfterMs !== undefined || isRetryableErrorMessage(message));
        if (!retryable) {
          lastError = err;
          break;
        }
        let delay = retry.baseDelayMs * 2 ** attempt;
        if (retryAfterMs !== undefined) delay = Math.max(delay, retryAfterMs);
        if (delay > MAX_RETRY_DELAY_MS && i < candidates.length - 1) {
          lastError = err;
          break;
        }
        attempt++;
        rt.log.warn(`Auto-compaction with ${candidate.info.ref} failed; retrying in ${delay} ms`, {
          attempt,
          maxRetries: retry.maxRetries,
          error: message,
        });
        await rt.sleep(delay, signal);
      }
    }
  }
  throw lastError ?? new Error(NO_AVAILABLE_MODEL);
}

/** Step 9. */
async function nextAfterCompaction(
  rt: AgentRuntime,
  willRetry: boolean,
  opts: AutoCompactionOptions,
): Promise<NextAction | undefined> {
  if (willRetry) rt.working.dropTrailingAssistant({ onlyErrors: true });
  if (!opts.allowContinue) return undefined;
  if (!willRetry && rt.settings.compaction.autoContinue !== false) {
    return { kind: "prompt", content: CONTINUE_PROMPT, synthetic: true };
  }
  if (!willRetry && rt.state.queue.length === 0) return undefined;
  try {
    await rt.sleep(CONTINUATION_DELAY_MS, opts.signal);
  } catch (err) {
    if (opts.signal.aborted) return undefined;
    throw err;
  }
  if (opts.signal.aborted) return undefined;
  return willRetry ? { kind: "continue" } : { kind: "queued" };
}
