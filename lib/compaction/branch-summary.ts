/**
 * Branch summarization: what an abandoned branch contributes, and its summary (session-engine.md §11.1–11.3).
 * Pure: no network, disk or database access. The model call goes through the injected
 * `Summarize` (conventions rule 2); prompts arrive as a PromptSet. Every walk is linear in the
 * number of entries involved (lists are built with push + reverse, never repeated unshift).
 */
import { addFileListDetails, computeFileLists, createFileOps, extractFileOpsFromMessage, formatFileOperations } from "@/lib/compaction/file-ops";
import type { FileOperations } from "@/lib/compaction/file-ops";
import type { Summarize } from "@/lib/compaction/summarize-types";
import { estimateTokens } from "@/lib/compaction/tokens";
import { BRANCH_SUMMARY_MAX_TOKENS, DEFAULT_BRANCH_SUMMARY_SETTINGS, FALLBACK_CONTEXT_WINDOW } from "@/lib/settings/schema";
import { convertToLlm } from "@/lib/session/file/convert";
import { serializeConversation } from "@/lib/compaction/serialize";
import type { AgentMessage, PromptSet, SessionEntry, Usage } from "@/lib/session/types";
import { branchSummaryMessageOf, compactionSummaryMessageOf, customMessageOf, isFromExtension } from "@/lib/session/entry-messages";

/** The tree reads branch collection needs; a SessionTree satisfies it. */
export interface BranchTreeReader {
  getBranch(fromId?: string | null): readonly SessionEntry[];
  getEntry(id: string): SessionEntry | undefined;
}

export interface BranchEntries {
  /** Oldest first. */
  entries: SessionEntry[];
  commonAncestorId: string | null;
}

/**
 * The entries on the way from `oldLeafId` back to where it meets the path to `targetId`
 * (session-engine.md §11.1). Compactions and earlier branch summaries are included. When the target is an
 * ancestor of the old leaf, the common ancestor is the target, so the result is the entries
 * strictly after it.
 */
export function collectEntriesForBranchSummary(
  tree: BranchTreeReader,
  oldLeafId: string | null,
  targetId: string,
): BranchEntries {
  if (oldLeafId === null) return { entries: [], commonAncestorId: null };

  const oldPath = new Set(tree.getBranch(oldLeafId).map((e) => e.id));
  const targetPath = tree.getBranch(targetId);
  let commonAncestorId: string | null = null;
  for (let i = targetPath.length - 1; i >= 0; i--) {
    const id = targetPath[i]?.id;
    if (id !== undefined && oldPath.has(id)) {
      commonAncestorId = id;
      break;
    }
  }

  const collected: SessionEntry[] = [];
  const seen = new Set<string>(); // guards against a corrupt parent cycle
  let current = tree.getEntry(oldLeafId);
  while (current && current.id !== commonAncestorId && !seen.has(current.id)) {
    seen.add(current.id);
    collected.push(current);
    current = current.parentId === null ? undefined : tree.getEntry(current.parentId);
  }
  collected.reverse();
  return { entries: collected, commonAncestorId };
}

/**
 * The message an entry contributes to a branch summary (session-engine.md §11.2 `messageOf`). Unlike the
 * compaction mapping, tool results are skipped and a compaction contributes its summary.
 */
export function branchMessageOf(entry: SessionEntry): AgentMessage | undefined {
  switch (entry.type) {
    case "message":
      return entry.message.role === "toolResult" ? undefined : entry.message;
    case "custom_message":
      return customMessageOf(entry);
    case "branch_summary":
      return branchSummaryMessageOf(entry);
    case "compaction":
      return compactionSummaryMessageOf(entry);
    default:
      return undefined;
  }
}


export interface PreparedBranchEntries {
  messages: AgentMessage[];
  fileOps: FileOperations;
  totalTokens: number;
}

/**
 * Selects the newest messages that fit `tokenBudget` (0 = unlimited) and gathers file ops
 * (session-engine.md §11.2). File ops from earlier branch summaries are taken from ALL entries (pass 1);
 * those from tool calls only from entries reached before the budget stops the walk (pass 2).
 */
export function prepareBranchEntries(entries: readonly SessionEntry[], tokenBudget = 0): PreparedBranchEntries {
  const fileOps = createFileOps();
  for (const entry of entries) {
    if (entry.type === "branch_summary" && !isFromExtension(entry) && entry.details) {
      addFileListDetails(entry.details, fileOps);
    }
  }

  const newestFirst: AgentMessage[] = [];
  let total = 0;
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i];
    const message = entry && branchMessageOf(entry);
    if (!entry || !message) continue;
    extractFileOpsFromMessage(message, fileOps); // before the budget check (session-engine.md §11.2 step 2.1)
    const tokens = estimateTokens(message);
    if (tokenBudget > 0 && total + tokens > tokenBudget) {
      // A summary is worth squeezing in while the budget is under 90% used: it condenses
      // everything older than itself.
      if ((entry.type === "compaction" || entry.type === "branch_summary") && total < 0.9 * tokenBudget) {
        newestFirst.push(message);
        total += tokens;
      }
      break;
    }
    newestFirst.push(message);
    total += tokens;
  }
  return { messages: newestFirst.reverse(), fileOps, totalTokens: total };
}

export interface GenerateBranchSummaryOptions {
  summarize: Summarize;
  prompts: PromptSet;
  /** The model's window; 0 or undefined falls back to 128000. */
  contextWindow?: number;
  /** `branchSummary.reserveTokens`; default 16384. */
  reserveTokens?: number;
  /** Replaces the default branch-summary prompt entirely (session-engine.md §11.3, §18). */
  customInstructions?: string;
  signal?: AbortSignal;
}

export type BranchSummaryResult =
  | { summary: string; readFiles?: string[]; modifiedFiles?: string[]; usage?: Usage; aborted?: undefined; error?: undefined }
  | { aborted: true; summary?: undefined; error?: undefined }
  | { error: string; summary?: undefined; aborted?: undefined };

export const NO_BRANCH_CONTENT = "No content to summarize";
export const NO_BRANCH_SUMMARY = "No summary generated";

/** Summarizes an abandoned branch with one model call (session-engine.md §11.3). */
export async function generateBranchSummary(
  entries: readonly SessionEntry[],
  opts: GenerateBranchSummaryOptions,
): Promise<BranchSummaryResult> {
  const reserveTokens = opts.reserveTokens ?? DEFAULT_BRANCH_SUMMARY_SETTINGS.reserveTokens;
  const tokenBudget = (opts.contextWindow || FALLBACK_CONTEXT_WINDOW) - reserveTokens;
  const { messages, fileOps } = prepareBranchEntries(entries, tokenBudget);
  if (messages.length === 0) return { summary: NO_BRANCH_CONTENT };

  const instructions = opts.customInstructions || opts.prompts.branchSummary;
  const conversation = serializeConversation(convertToLlm(messages, opts.prompts));
  const prompt = `<conversation>\n${conversation}\n</conversation>\n\n${instructions}`;

  // No reasoning for branch summaries, and the call always goes to the model (session-engine.md §6.3, §7).
  const response = await opts.summarize({
    kind: "branch",
    systemPrompt: opts.prompts.summarizationSystem,
    prompt,
    maxTokens: BRANCH_SUMMARY_MAX_TOKENS,
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
  if (response.stopReason === "aborted") return { aborted: true };
  if (response.stopReason === "error") return { error: response.errorMessage || "Summarization failed" };

  const { readFiles, modifiedFiles } = computeFileLists(fileOps);
  // A blank line between the preamble and the text is deliberate (session-engine.md §18.2).
  const summary = `${opts.prompts.branchSummaryPreamble}\n\n${response.text}${formatFileOperations(readFiles, modifiedFiles)}`;
  return { summary: summary || NO_BRANCH_SUMMARY, readFiles, modifiedFiles, ...(response.usage ? { usage: response.usage } : {}) };
}
