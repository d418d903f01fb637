/**
 * navigateTree: move the session to another entry, optionally summarizing the branch being
 * left (session-engine.md §11.4, steps 1–11).
 * No I/O of its own: it works on the in-memory SessionTree it is given, and the model call goes
 * through the injected `summarize`. The caller persists `appended` and the new leaf. Nothing is
 * written when it is cancelled (by a hook) or aborted, so the tree is exactly as before.
 */
import { collectEntriesForBranchSummary, generateBranchSummary } from "@/lib/compaction/branch-summary";
import type { Summarize } from "@/lib/compaction/summarize-types";
import { createHookContext } from "@/lib/hooks/context";
import type { HookRegistry } from "@/lib/hooks/registry";
import type { SessionTreePayload, TreePreparation } from "@/lib/hooks/types";
import type { SessionTree } from "@/lib/session/tree/tree";
import type { BranchSummaryEntry, PromptSet, SessionContext, SessionEntry, SummaryCall } from "@/lib/session/types";

export interface NavigateModel {
  provider: string;
  id: string;
  contextWindow: number;
  hasApiKey: boolean;
}

export interface NavigateTreeOptions {
  /** Set when the user asked for a summary of the branch being left. */
  summarize?: Summarize;
  prompts: PromptSet;
  /** Replaces the default branch-summary prompt (session-engine.md §11.3). */
  customInstructions?: string;
  hooks?: HookRegistry;
  /** The current model; required when `summarize` is set. */
  model?: NavigateModel;
  /** `branchSummary.reserveTokens` (default 16384). */
  branchSummaryReserveTokens?: number;
  /** The caller's cancel signal (the "Cancel" button, `abortBranchSummary()`). */
  signal?: AbortSignal;
}

export interface NavigateTreeResult {
  /** Text for the chat input (only applied by the UI when the input is empty). */
  editorText?: string;
  cancelled: boolean;
  aborted?: boolean;
  summaryEntry?: BranchSummaryEntry;
  /** The leaf after navigating (the summary entry when one was written). */
  newLeafId?: string | null;
  /** Entries written by this navigation, in order (at most the one branch summary). */
  appended: SessionEntry[];
  /** The rebuilt working context (step 9); absent when nothing changed. */
  context?: SessionContext;
}

/** The text of a user or custom_message content (session-engine.md §11.4 step 7). */
function contentText(content: string | readonly { type: string; text?: string }[]): string {
  if (typeof content === "string") return content;
  return content
    .filter((b) => b.type === "text")
    .map((b) => b.text ?? "")
    .join("");
}

/**
 * Where the leaf goes for a target (step 7): re-editing a user or custom message means standing
 * on its parent with its text back in the editor; any other entry becomes the leaf itself.
 */
function resolveTarget(tree: SessionTree, target: SessionEntry): { newLeafId: string | null; editorText?: string } {
  let content: string | readonly { type: string; text?: string }[] | undefined;
  if (target.type === "message" && target.message.role === "user") content = target.message.content;
  else if (target.type === "custom_message") content = target.content;
  if (content === undefined) return { newLeafId: target.id };
  // A parent that is missing makes the target a root (session-engine.md §1.6 orphans): re-edit at the root.
  const parentId = target.parentId !== null && tree.getEntry(target.parentId) ? target.parentId : null;
  return { newLeafId: parentId, editorText: contentText(content) };
}

/**
 * The branch-summary controller of step 4, aborted when the caller's signal is. Returns the
 * controller and an unlink function, so a long-lived caller signal does not keep listeners.
 */
function linkedController(outer?: AbortSignal): { controller: AbortController; unlink: () => void } {
  const controller = new AbortController();
  if (!outer) return { controller, unlink: () => {} };
  const onAbort = () => controller.abort(outer.reason);
  if (outer.aborted) onAbort();
  else outer.addEventListener("abort", onAbort, { once: true });
  return { controller, unlink: () => outer.removeEventListener("abort", onAbort) };
}

function abortedResult(): NavigateTreeResult {
  return { cancelled: true, aborted: true, appended: [] };
}

export async function navigateTree(
  tree: SessionTree,
  targetId: string,
  opts: NavigateTreeOptions,
): Promise<NavigateTreeResult> {
  // 1. Navigating to where we already are changes nothing.
  const oldLeafId = tree.getLeafId();
  if (targetId === oldLeafId) return { cancelled: false, newLeafId: oldLeafId, appended: [] };

  // 2.
  if (opts.summarize && !opts.model) throw new Error("No model available for summarization");
  const target = tree.getEntry(targetId);
  if (!target) throw new Error(`Entry ${targetId} not found`);

  // 3.
  const { entries, commonAncestorId } = collectEntriesForBranchSummary(tree, oldLeafId, targetId);
  const preparation: TreePreparation = {
    targetId,
    oldLeafId,
    commonAncestorId,
    entriesToSummarize: entries,
    userWantsSummary: !!opts.summarize,
  };

  // 4.
  const { controller, unlink } = linkedController(opts.signal);
  try {
    return await run(tree, target, preparation, controller, opts);
  } finally {
    unlink();
  }
}

/** Steps 5–11, once the target is known and the branch-summary controller exists. */
async function run(
  tree: SessionTree,
  target: SessionEntry,
  preparation: TreePreparation,
  controller: AbortController,
  opts: NavigateTreeOptions,
): Promise<NavigateTreeResult> {
  const { summarize, model, hooks } = opts;
  const { oldLeafId, entriesToSummarize: entries } = preparation;
  const ctx = createHookContext(tree);

  // 5. Fires whenever handlers exist, even when not summarizing.
  let summaryText: string | undefined;
  let details: unknown;
  let fromExtension = false;
  // The summary call's usage and model, recorded on the entry so the ledger counts it.
  let call: SummaryCall | undefined;
  if (hooks?.hasHandlers("session_before_tree")) {
    const result = await hooks.emit({ type: "session_before_tree", preparation, signal: controller.signal }, ctx);
    if (result?.cancel) return { cancelled: true, appended: [] };
    if (summarize && result?.summary) {
      summaryText = result.summary.summary;
      details = result.summary.details;
      fromExtension = true;
    }
  }

  // 6. Summarize unless a hook already did.
  if (summarize && model && entries.length > 0 && summaryText === undefined) {
    if (!model.hasApiKey) throw new Error(`No API key for ${model.provider}`);
    let result: Awaited<ReturnType<typeof generateBranchSummary>>;
    try {
      result = await generateBranchSummary(entries, {
        summarize,
        prompts: opts.prompts,
        contextWindow: model.contextWindow,
        ...(opts.branchSummaryReserveTokens !== undefined ? { reserveTokens: opts.branchSummaryReserveTokens } : {}),
        ...(opts.customInstructions ? { customInstructions: opts.customInstructions } : {}),
        signal: controller.signal,
      });
    } catch (err) {
      if (controller.signal.aborted) return abortedResult();
      throw err;
    }
    // A cancel that lands while the response is arriving still wins: nothing is written.
    if (result.aborted || controller.signal.aborted) return abortedResult();
    if (result.error !== undefined) throw new Error(result.error);
    summaryText = result.summary;
    if (result.usage) call = { usage: result.usage, provider: model.provider, model: model.id };
    details = { readFiles: result.readFiles ?? [], modifiedFiles: result.modifiedFiles ?? [] };
  }

  // 7.
  const { newLeafId, editorText } = resolveTarget(tree, target);

  // 8. Switch the leaf, recording what gets appended for the caller to persist.
  const appended: SessionEntry[] = [];
  const stopRecording = tree.onAppend((e) => appended.push(e));
  let summaryEntry: BranchSummaryEntry | undefined;
  try {
    if (summaryText !== undefined) {
      // Attached under the new leaf, or as a new root when that is null (session-engine.md §18.4).
      const id = tree.branchWithSummary(newLeafId, summaryText, details, fromExtension, call);
      summaryEntry = tree.getEntry(id) as BranchSummaryEntry;
    } else if (newLeafId === null) {
      tree.resetLeaf();
    } else {
      tree.branch(newLeafId);
    }
  } finally {
    stopRecording();
  }

  // 9.
  const context = tree.buildContext();

  // 10.
  if (hooks) {
    const payload: SessionTreePayload = { newLeafId: tree.getLeafId(), oldLeafId };
    if (summaryEntry) payload.summaryEntry = summaryEntry;
    if (summaryText !== undefined) payload.fromExtension = fromExtension;
    await hooks.emit({ type: "session_tree", ...payload }, ctx);
  }

  // 11.
  const result: NavigateTreeResult = { cancelled: false, newLeafId: tree.getLeafId(), appended, context };
  if (editorText !== undefined) result.editorText = editorText;
  if (summaryEntry) result.summaryEntry = summaryEntry;
  return result;
}
