/**
 * The steps manual and automatic compaction share: the hook round (session-engine.md §12, §13.3 steps 3–4,
 * §13.4 steps 3–4) and storing the result (§13.3 step 8, §13.4 step 7).
 *
 * Contract:
 * - `session_before_compact` runs first. `cancel` stops the compaction; a hook `compaction` is
 *   used as given (fromExtension: true, preserveData from the hook's compaction) and
 *   `session.compacting` is then NOT fired.
 * - Otherwise `session.compacting` supplies `context` → extraContext, `prompt` →
 *   promptOverride and `preserveData`.
 * - Storing appends the compaction entry, commits it, and only then fires `session_compact`
 *   (the working context is rebuilt from the tree on every read, so it is current by then).
 */
import type { AgentRuntime } from "@/lib/agent/runtime";
import type { CompactionPreparation } from "@/lib/compaction/prepare";
import type { CompactionResult } from "@/lib/compaction/summarize-types";
import type { CompactionEntry, SessionEntry } from "@/lib/session/types";

export interface CompactionPlan {
  cancelled: boolean;
  /** Supplied by a `session_before_compact` hook; stored as given. */
  hookCompaction?: CompactionResult;
  extraContext?: string[];
  promptOverride?: string;
  preserveData?: Record<string, unknown>;
}

export async function runCompactionHooks(
  rt: AgentRuntime,
  preparation: CompactionPreparation,
  branchEntries: SessionEntry[],
  customInstructions: string | undefined,
  signal: AbortSignal,
): Promise<CompactionPlan> {
  const before = await rt.hooks.emit(
    { type: "session_before_compact", preparation, branchEntries, customInstructions, signal },
    rt.hookContext,
  );
  if (before?.cancel) return { cancelled: true };
  if (before?.compaction) {
    const plan: CompactionPlan = { cancelled: false, hookCompaction: before.compaction };
    if (before.compaction.preserveData) plan.preserveData = before.compaction.preserveData;
    return plan;
  }

  const compacting = await rt.hooks.emit(
    {
      type: "session.compacting",
      sessionId: rt.tree.getHeader().id,
      messages: [...preparation.messagesToSummarize, ...preparation.turnPrefixMessages],
    },
    rt.hookContext,
  );
  const plan: CompactionPlan = { cancelled: false };
  if (compacting?.context?.length) plan.extraContext = compacting.context;
  if (compacting?.prompt) plan.promptOverride = compacting.prompt;
  if (compacting?.preserveData) plan.preserveData = compacting.preserveData;
  return plan;
}

/** compact() options from a plan (only the fields that are set). */
export function compactOptions(plan: CompactionPlan, signal: AbortSignal, customInstructions?: string) {
  return {
    signal,
    ...(customInstructions ? { customInstructions } : {}),
    ...(plan.promptOverride ? { promptOverride: plan.promptOverride } : {}),
    ...(plan.extraContext ? { extraContext: plan.extraContext } : {}),
  };
}

export interface StoredCompaction {
  /** The result as stored (with the plan's preserveData). */
  result: CompactionResult;
  entry: CompactionEntry & SessionEntry;
}

export async function storeCompaction(
  rt: AgentRuntime,
  result: CompactionResult,
  plan: CompactionPlan,
): Promise<StoredCompaction> {
  const fromExtension = plan.hookCompaction !== undefined;
  const id = rt.tree.appendCompaction(
    result.summary,
    result.shortSummary,
    result.firstKeptEntryId,
    result.tokensBefore,
    result.details,
    fromExtension,
    plan.preserveData,
    result.pinnedEntryIds,
    result.usage ? { usage: result.usage, ...(result.model ? { provider: result.model.provider, model: result.model.id } : {}) } : undefined,
  );
  const entry = rt.tree.getEntry(id) as CompactionEntry & SessionEntry;
  await rt.persist();
  await rt.hooks.emit({ type: "session_compact", compactionEntry: entry, fromExtension }, rt.hookContext);
  const stored: CompactionResult = plan.preserveData ? { ...result, preserveData: plan.preserveData } : result;
  return { result: stored, entry };
}
