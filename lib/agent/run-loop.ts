/**
 * The run loop behind `SessionAgent.prompt()` (session-engine.md §13.1, §13.5).
 *
 *   pre-prompt check: checkCompaction(lastAssistant, skipAborted = false) when the working
 *   context has an assistant — continuing nothing, since the user's prompt follows
 *   → append the user message (clears overflowRecoveryAttempted, §13.2) and commit it
 *   → runTurns (model calls + tools); the first model call goes out while that commit is in
 *     flight (one round trip less before the request leaves): turn-runner.ts awaits the commit
 *     before it appends anything, and a failed commit stops the call and ends the run with the
 *     commit's error, exactly as if it had failed before the call
 *   → after the run: a scheduled turn retry stops here (§13.1 step 1: continue with no new
 *     user message); otherwise checkCompaction(msg), which may ask for the synthetic
 *     continue prompt, a plain continue (overflow retry) or the queue (§13.3 step 9)
 *   → with nothing asked for, queued messages are sent one by one; then the loop ends.
 * An abort ends the loop after the current step. At most MAX_RUNS_PER_PROMPT runs.
 */
import { checkCompaction } from "@/lib/agent/compaction-check";
import type { AgentRuntime, NextAction } from "@/lib/agent/runtime";
import { runTurns } from "@/lib/agent/turn-runner";
import { handleTurnRetry } from "@/lib/agent/turn-retry";
import type { AssistantMessage, UserMessage } from "@/lib/session/types";

/** Runs (prompt, retries, continuations, queued messages) allowed in one prompt() call. */
export const MAX_RUNS_PER_PROMPT = 32;

export interface RunLoopOptions {
  synthetic?: boolean;
  /** Skips the §13.1 pre-prompt compaction check. */
  skipCompactionCheck?: boolean;
}

export async function runPromptLoop(
  rt: AgentRuntime,
  content: UserMessage["content"],
  opts: RunLoopOptions,
  signal: AbortSignal,
): Promise<AssistantMessage | undefined> {
  rt.state.turnIndex = 0;
  if (!opts.skipCompactionCheck) {
    const lastAssistant = rt.working.lastAssistant();
    if (lastAssistant) await checkCompaction(rt, lastAssistant, { skipAborted: false, allowContinue: false, signal });
  }

  let next: NextAction | undefined = { kind: "prompt", content, synthetic: opts.synthetic === true };
  let last: AssistantMessage | undefined;
  for (let runs = 0; next && !signal.aborted; runs++) {
    if (runs >= MAX_RUNS_PER_PROMPT) {
      rt.emit({ type: "error", message: `Stopped after ${MAX_RUNS_PER_PROMPT} runs in one prompt.` });
      break;
    }
    const message = await runTurns(rt, signal, startRun(rt, next));
    if (!message) break;
    last = message;
    next = await afterRun(rt, message, signal);
    if (!next && rt.state.queue.length > 0 && !signal.aborted) next = { kind: "queued" };
  }
  return last;
}

/**
 * Appends what starts a run: the user prompt, the next queued message, or nothing (continue).
 * Returns its commit, still running (see the header).
 */
function startRun(rt: AgentRuntime, next: NextAction): Promise<unknown> {
  if (next.kind === "continue") return Promise.resolve();
  if (next.kind === "prompt") {
    appendUser(rt, next.content, next.synthetic);
  } else {
    const queued = rt.state.queue.shift();
    if (!queued) return Promise.resolve();
    if (queued.role === "user") appendUser(rt, queued.content, queued.synthetic === true);
    else rt.tree.appendCustomMessageEntry(queued.customType, queued.content, queued.display, queued.details);
  }
  return rt.persist();
}

function appendUser(rt: AgentRuntime, content: UserMessage["content"], synthetic: boolean): void {
  const message: UserMessage = { role: "user", content, timestamp: rt.now() };
  if (synthetic) message.synthetic = true;
  // A user message starts: overflow recovery may run again (session-engine.md §13.2).
  rt.state.overflowRecoveryAttempted = false;
  rt.tree.appendMessage(message);
}

/** §13.1 "after a run ends". */
async function afterRun(rt: AgentRuntime, message: AssistantMessage, signal: AbortSignal): Promise<NextAction | undefined> {
  const retry = await handleTurnRetry(rt, message, signal);
  if (retry === "retry") return { kind: "continue" };
  if (retry === "cancelled") return undefined;
  return checkCompaction(rt, message, { skipAborted: true, allowContinue: true, signal });
}
