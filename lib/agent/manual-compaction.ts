/**
 * Manual compaction — the "Compact" action (session-engine.md §13.4) — and its preview.
 *
 * compactManually, after the caller has stopped the running turn:
 * - checks, in order: `No model selected`, `No API key for ${provider}`, then `Already
 *   compacted` / `Nothing to compact (session too small)`;
 * - session_before_compact WITH customInstructions (cancel → throws `Compaction cancelled`),
 *   then session.compacting (only without a hook compaction);
 * - compact() with the current model only: no retries, no fallback candidates;
 * - an abort → throws `Compaction cancelled` and NOTHING is written;
 * - append + commit, session_compact, return the result. No auto_compaction_* events; the
 *   compaction_start/_summary_delta/_end events let the UI show the summary streaming.
 *
 * previewCompaction is the same plan without a model call (for the UI's preview dialog).
 */
import { compactOptions, runCompactionHooks, storeCompaction } from "@/lib/agent/compaction-steps";
import type { SummaryTextListener } from "@/lib/agent/ports";
import type { AgentRuntime } from "@/lib/agent/runtime";
import { compact } from "@/lib/compaction/compact";
import { computeFileLists } from "@/lib/compaction/file-ops";
import { pinnedIds } from "@/lib/session/pins";
import { type NothingToCompactReason, nothingToCompactReason, prepareCompaction } from "@/lib/compaction/prepare";
import type { CompactionResult } from "@/lib/compaction/summarize-types";
import { estimateTokens } from "@/lib/compaction/tokens";
import type { AgentMessage } from "@/lib/session/types";
import { errorText } from "@/lib/text/error-text";

export const COMPACTION_CANCELLED = "Compaction cancelled";

/**
 * Arbor extras of one manual compaction ("Compact again with…", session-engine.md §19.3): a prompt that
 * replaces the summary prompt (it wins over a hook's), and fields merged into `details`.
 */
export interface ManualExtras {
  promptOverride?: string;
  details?: Record<string, unknown>;
}

export async function compactManually(
  rt: AgentRuntime,
  customInstructions: string | undefined,
  signal: AbortSignal,
  onSummaryText?: SummaryTextListener,
  extra: ManualExtras = {},
): Promise<CompactionResult> {
  const model = rt.model;
  if (!model) throw new Error("No model selected");
  if (!model.hasApiKey) throw new Error(`No API key for ${model.info.provider}`);
  const branch = rt.tree.getBranch();
  const preparation = prepareCompaction(branch, rt.settings.compaction, { pinnedIds: pinnedIds(rt.tree.getEntries()) });
  if (!preparation) throw new Error(nothingToCompactReason(branch));

  rt.emit({ type: "compaction_start", reason: "manual" });
  let failure: { aborted: boolean; errorMessage: string } | undefined;
  try {
    const plan = await runCompactionHooks(rt, preparation, branch, customInstructions, signal);
    if (plan.cancelled) {
      failure = { aborted: true, errorMessage: COMPACTION_CANCELLED };
      throw new Error(COMPACTION_CANCELLED);
    }
    const onText: SummaryTextListener = (kind, delta) => {
      rt.emit({ type: "compaction_summary_delta", kind, delta });
      onSummaryText?.(kind, delta);
    };
    let result: CompactionResult;
    try {
      result =
        plan.hookCompaction ??
        (await compact(
          preparation,
          { summarize: rt.summarizer(model, onText), prompts: rt.prompts },
          compactOptions(extra.promptOverride ? { ...plan, promptOverride: extra.promptOverride } : plan, signal, customInstructions),
        ));
      if (extra.details && !plan.hookCompaction) result = { ...result, details: { ...(result.details as object), ...extra.details } };
    } catch (err) {
      if (signal.aborted) {
        failure = { aborted: true, errorMessage: COMPACTION_CANCELLED };
        throw new Error(COMPACTION_CANCELLED);
      }
      throw err;
    }
    if (signal.aborted) {
      failure = { aborted: true, errorMessage: COMPACTION_CANCELLED };
      throw new Error(COMPACTION_CANCELLED);
    }
    const stored = await storeCompaction(rt, result, plan);
    rt.emit({ type: "compaction_end", reason: "manual", result: stored.result, entryId: stored.entry.id, aborted: false });
    return stored.result;
  } catch (err) {
    const info = failure ?? { aborted: false, errorMessage: errorText(err) };
    rt.emit({ type: "compaction_end", reason: "manual", ...info });
    throw err;
  }
}

export type CompactionPreview =
  | { canCompact: false; reason: NothingToCompactReason }
  | {
      canCompact: true;
      /** The cut point: the first entry kept verbatim. */
      firstKeptEntryId: string;
      isSplitTurn: boolean;
      /** Message counts: summarized history, early part of a split turn, kept verbatim. */
      messagesToSummarize: number;
      turnPrefixMessages: number;
      keptMessages: number;
      tokensBefore: number;
      /** chars/4 estimates (session-engine.md §4) of the summarized and of the kept parts. */
      summarizedTokensEstimate: number;
      keptTokensEstimate: number;
      /** Whether an earlier compaction's summary is folded in (update prompt). */
      hasPreviousSummary: boolean;
      readFiles: string[];
      modifiedFiles: string[];
      customInstructions?: string;
    };

const sumTokens = (messages: AgentMessage[]) => messages.reduce((n, m) => n + estimateTokens(m), 0);

export function previewCompaction(rt: AgentRuntime, customInstructions?: string): CompactionPreview {
  const branch = rt.tree.getBranch();
  const p = prepareCompaction(branch, rt.settings.compaction, { pinnedIds: pinnedIds(rt.tree.getEntries()) });
  if (!p) return { canCompact: false, reason: nothingToCompactReason(branch) };
  const { readFiles, modifiedFiles } = computeFileLists(p.fileOps);
  const preview: CompactionPreview = {
    canCompact: true,
    firstKeptEntryId: p.firstKeptEntryId,
    isSplitTurn: p.isSplitTurn,
    messagesToSummarize: p.messagesToSummarize.length,
    turnPrefixMessages: p.turnPrefixMessages.length,
    keptMessages: p.recentMessages.length,
    tokensBefore: p.tokensBefore,
    summarizedTokensEstimate: sumTokens(p.messagesToSummarize) + sumTokens(p.turnPrefixMessages),
    keptTokensEstimate: sumTokens(p.recentMessages),
    hasPreviousSummary: p.previousSummary !== undefined,
    readFiles,
    modifiedFiles,
  };
  if (customInstructions) preview.customInstructions = customInstructions;
  return preview;
}
