/**
 * navigateTree (session-engine.md §11.4, navigate-tree.ts) wired to the agent: the current model, the
 * recorded summarizer, the hooks and `branchSummary` settings, plus persistence — what it
 * appended and the new leaf go to the store in one commit (entries [] when only the leaf
 * moved). Nothing is committed when it was cancelled or aborted (the tree is unchanged then).
 * With `branchSummary.enabled` false the navigator never summarizes (session-engine.md §15).
 */
import { type NavigateTreeOptions, type NavigateTreeResult, navigateTree } from "@/lib/agent/navigate-tree";
import type { SummaryTextListener } from "@/lib/agent/ports";
import type { AgentRuntime } from "@/lib/agent/runtime";

export interface NavigateOptions {
  /** Summarize the branch being left (ignored when `branchSummary.enabled` is false). */
  summarize?: boolean;
  customInstructions?: string;
  signal?: AbortSignal;
  onSummaryText?: SummaryTextListener;
}

export async function navigateAndCommit(
  rt: AgentRuntime,
  targetId: string,
  opts: NavigateOptions,
  signal: AbortSignal,
): Promise<NavigateTreeResult> {
  const model = rt.model;
  const options: NavigateTreeOptions = {
    prompts: rt.prompts,
    hooks: rt.hooks,
    signal,
    branchSummaryReserveTokens: rt.settings.branchSummary.reserveTokens,
  };
  if (model) {
    options.model = {
      provider: model.info.provider,
      id: model.info.id,
      contextWindow: model.info.contextWindow,
      hasApiKey: model.hasApiKey,
    };
  }
  if (opts.summarize && rt.settings.branchSummary.enabled) {
    // Without a model navigateTree throws "No model available for summarization" before
    // any call, so the stand-in is never used.
    options.summarize = model
      ? rt.summarizer(model, opts.onSummaryText)
      : async () => ({ stopReason: "error", errorMessage: "No model selected" });
  }
  if (opts.customInstructions) options.customInstructions = opts.customInstructions;

  const result = await navigateTree(rt.tree, targetId, options);
  if (!result.cancelled) await rt.persist();
  return result;
}
