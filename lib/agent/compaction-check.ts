/**
 * checkCompaction(msg, skipAborted = true) — session-engine.md §13.2, with pruning integrated as §8 says.
 *
 * 1. `compaction.enabled` false → nothing (it also gates pruning).
 * 2. Prune the current branch's tool outputs (§8); if anything was pruned, the pruned copies
 *    replace their entries in the tree (never the original objects: they may be shared), the
 *    store rewrites those entries (`persistPrune`), a `prune` event is emitted, and the working
 *    context is rebuilt (it is read from the tree).
 * 3. `skipAborted` and an aborted msg → stop.
 * 4–6. contextWindow, sameModel, and `errorIsFromBeforeCompaction` against the LATEST
 *    compaction on the branch (§18.6).
 * 7. Overflow (§14) from this model and not from before the latest compaction: once per user
 *    prompt — a second one ends with the pi failure message — drop the trailing assistant from
 *    the working context (it stays stored) and run the overflow compaction with willRetry.
 * 8. Any other error → stop.
 * 9. Threshold: context tokens of msg minus what pruning saved, against `shouldCompact`.
 *    Decision: a model whose contextWindow is unknown (≤ 0) never triggers the threshold.
 *
 * Resolves with what the run loop should do next (see auto-compaction.ts step 9).
 */
import { type AutoCompactionOptions, runAutoCompaction } from "@/lib/agent/auto-compaction";
import type { AgentRuntime, NextAction } from "@/lib/agent/runtime";
import { extendLedger, ledgerWouldPrune, type PruneLedger } from "@/lib/compaction/prune-ledger";
import { applyPrunePlan, DEFAULT_PRUNE_CONFIG, type PruneResult, planPrune } from "@/lib/compaction/pruning";
import { calculateContextTokens, shouldCompact, toolResultTokens } from "@/lib/compaction/tokens";
import { isContextOverflow } from "@/lib/compaction/overflow";
import { treeContentGeneration } from "@/lib/session/tree/tree-content";
import type { AssistantMessage, SessionEntry, ToolResultMessage } from "@/lib/session/types";

export const OVERFLOW_RECOVERY_FAILED =
  "Context overflow recovery failed after one compact-and-retry attempt. Try reducing context or switching to a larger-context model.";

export interface CheckCompactionOptions extends AutoCompactionOptions {
  skipAborted: boolean;
}

/**
 * The prune ledger (lib/compaction/prune-ledger.ts) of the branch each session last checked,
 * with the tree content generation (tree.ts) it was built at. A chat checks before every prompt
 * and after every reply (§13.2); each check extends the ledger by the entries appended since,
 * so it no longer walks the whole branch, and only a ledger that says "prune" leads to
 * planPrune's walk. Any load or replacement of the session's entries (a prune writes copies)
 * bumps its generation and the next check starts a new ledger; loading other sessions does not.
 * Bounded: the oldest session goes first.
 */
const ledgers = new Map<string, { generation: number; ledger: PruneLedger }>();
/** Sessions chatting at once in one process; a ledger is ~12 bytes a tool result (100k entries: ~0.4 MB). */
const LEDGERS_MAX = 16;

function wouldPrune(sessionId: string, branch: readonly SessionEntry[]): boolean {
  const generation = treeContentGeneration(sessionId);
  const held = ledgers.get(sessionId);
  const previous = held?.generation === generation ? held.ledger : undefined;
  const ledger = extendLedger(branch, DEFAULT_PRUNE_CONFIG.protectedTools, toolResultTokens, previous);
  ledgers.delete(sessionId);
  ledgers.set(sessionId, { generation, ledger });
  if (ledgers.size > LEDGERS_MAX) ledgers.delete(ledgers.keys().next().value!);
  return ledgerWouldPrune(ledger, DEFAULT_PRUNE_CONFIG);
}

/** Step 2: prune and persist; undefined when nothing was pruned. */
export async function pruneBranch(rt: AgentRuntime): Promise<PruneResult | undefined> {
  // pruneToolOutputs rewrites tool results in place (session-engine.md §8). The tree's entry objects may be
  // shared with a cache of committed entries (lib/db/read-model), so the decision is made on the
  // branch as it is (planPrune touches nothing), and only the results it rewrites are copied;
  // the pruned copies replace their originals in this tree only.
  const original = rt.tree.getBranch();
  if (!wouldPrune(rt.tree.getHeader().id, original)) return undefined;
  const plan = planPrune(original, DEFAULT_PRUNE_CONFIG, toolResultTokens);
  if (plan.candidates.length === 0) return undefined;
  const branch = original.slice();
  for (const { index } of plan.candidates) {
    const e = branch[index];
    if (e?.type === "message" && e.message.role === "toolResult") branch[index] = { ...e, message: { ...e.message } } as SessionEntry;
  }
  const result = applyPrunePlan(branch, plan, rt.now());
  if (result.prunedCount === 0) return undefined;
  rt.tree.replaceEntries(result.pruned.map((p) => branch[p.index]!));
  await rt.store.persistPrune(
    result.pruned.map((p) => {
      const entry = branch[p.index];
      return {
        entryId: p.entryId,
        originalContent: p.originalContent,
        message: (entry?.type === "message" ? entry.message : undefined) as ToolResultMessage,
      };
    }),
  );
  rt.emit({ type: "prune", prunedCount: result.prunedCount, tokensSaved: result.tokensSaved });
  rt.emitContextUsage();
  return result;
}

function latestCompactionTime(branch: SessionEntry[]): number | undefined {
  for (let i = branch.length - 1; i >= 0; i--) {
    const entry = branch[i];
    if (entry?.type === "compaction") return Date.parse(entry.timestamp);
  }
  return undefined;
}

export async function checkCompaction(
  rt: AgentRuntime,
  msg: AssistantMessage,
  opts: CheckCompactionOptions,
): Promise<NextAction | undefined> {
  const settings = rt.settings.compaction;
  if (!settings.enabled) return undefined;

  const pruneResult = await pruneBranch(rt);

  if (opts.skipAborted && msg.stopReason === "aborted") return undefined;

  const model = rt.model;
  const contextWindow = model?.info.contextWindow ?? 0;
  const sameModel = !!model && msg.provider === model.info.provider && msg.model === model.info.id;
  const latest = latestCompactionTime(rt.tree.getBranch());
  const errorIsFromBeforeCompaction = latest !== undefined && msg.timestamp < latest;

  if (sameModel && !errorIsFromBeforeCompaction && isContextOverflow(msg, contextWindow)) {
    if (rt.state.overflowRecoveryAttempted) {
      await rt.lifecycle({
        type: "auto_compaction_end",
        result: undefined,
        aborted: false,
        willRetry: false,
        errorMessage: OVERFLOW_RECOVERY_FAILED,
      });
      return undefined;
    }
    rt.state.overflowRecoveryAttempted = true;
    rt.working.dropTrailingAssistant();
    return runAutoCompaction(rt, "overflow", true, opts);
  }

  if (msg.stopReason === "error") return undefined;

  let tokens = msg.usage ? calculateContextTokens(msg.usage) : 0;
  if (pruneResult) tokens = Math.max(0, tokens - pruneResult.tokensSaved);
  if (contextWindow > 0 && shouldCompact(tokens, contextWindow, settings)) {
    return runAutoCompaction(rt, "threshold", false, opts);
  }
  return undefined;
}
