/**
 * compact(): turns a CompactionPreparation into a CompactionResult (session-engine.md §6).
 * Pure: no network, disk or database access. Every model call goes through the injected
 * `summarize` (conventions rule 2); errors it throws propagate unchanged (§6). Aborts are not
 * checked here: the orchestrator inspects `signal.aborted` after we return (§13).
 */
import { CITE_INSTRUCTION, serializeWithSources } from "@/lib/compaction/citations";
import { computeFileLists, formatFileOperations } from "@/lib/compaction/file-ops";
import type { CompactionPreparation } from "@/lib/compaction/prepare";
import { serializeConversation } from "@/lib/compaction/serialize";
import type { CompactionResult, Summarize, SummarizeRequest, SummarizeResponse } from "@/lib/compaction/summarize-types";
import { convertToLlm } from "@/lib/session/file/convert";
import { renderTemplate } from "@/lib/session/prompt-template";
import type { AgentMessage, PromptSet, Usage } from "@/lib/session/types";

export interface CompactDeps {
  summarize: Summarize;
  prompts: PromptSet;
}

export interface CompactOptions {
  /** Appended to the history prompt as "Additional focus:" (also to an override). */
  customInstructions?: string;
  /** Replaces the history base prompt (from a `session.compacting` hook). */
  promptOverride?: string;
  /** Lines for the `<additional-context>` block (history and short calls). */
  extraContext?: string[];
  signal?: AbortSignal;
}

/** Literal used when there is no history to summarize (session-engine.md §6.1). */
export const NO_PRIOR_HISTORY = "No prior history.";
/** Joins history and turn-prefix summaries of a split turn (session-engine.md §6.1). */
export const SPLIT_TURN_SEPARATOR = "\n\n---\n\n**Turn Context (split turn):**\n\n";

/** maxTokens per call, from `reserveTokens` (session-engine.md §6.3). */
export function compactionBudgets(reserveTokens: number): { history: number; turnPrefix: number; short: number } {
  return {
    history: Math.floor(0.8 * reserveTokens),
    turnPrefix: Math.floor(0.5 * reserveTokens),
    short: Math.min(512, Math.floor(0.2 * reserveTokens)),
  };
}

/** `<conversation>` block followed by a blank line (session-engine.md §6.2); also used by branch summaries (§11.3). */
export function conversationBlock(messages: AgentMessage[], prompts: PromptSet): string {
  return `<conversation>\n${serializeConversation(convertToLlm(messages, prompts))}\n</conversation>\n\n`;
}

function previousSummaryBlock(summary: string | undefined): string {
  return summary ? `<previous-summary>\n${summary}\n</previous-summary>\n\n` : "";
}

function additionalContextBlock(lines: string[] | undefined): string {
  if (!lines?.length) return "";
  return `<additional-context>\n${lines.map((l) => `- ${l}`).join("\n")}\n</additional-context>\n\n`;
}

type Kind = "history" | "turnPrefix" | "short";
const FAILURE_PREFIX: Record<Kind, string> = {
  history: "Summarization failed",
  turnPrefix: "Turn prefix summarization failed",
  short: "Short summary failed",
};

/** A history summary; `shortSummary` only when a remote endpoint supplied one (§7). */
type HistorySummary = { text: string; shortSummary?: string };

/** What the summary calls of one compaction reported. */
interface Spent {
  usage: Usage[];
  model?: { provider: string; id: string };
}

/** The usage of several summary calls, summed (the compaction entry's `usage`, §1.4). */
export function sumUsage(list: readonly Usage[]): Usage | undefined {
  if (list.length === 0) return undefined;
  const out: Usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0 };
  for (const u of list) {
    out.input += u.input;
    out.output += u.output;
    out.cacheRead += u.cacheRead;
    out.cacheWrite += u.cacheWrite;
    out.totalTokens = (out.totalTokens ?? 0) + (u.totalTokens ?? u.input + u.output + u.cacheRead + u.cacheWrite);
    if (u.cost) {
      const c = out.cost ?? { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 };
      out.cost = { input: c.input + u.cost.input, output: c.output + u.cost.output, cacheRead: c.cacheRead + u.cost.cacheRead, cacheWrite: c.cacheWrite + u.cost.cacheWrite, total: c.total + u.cost.total };
    }
  }
  return out;
}

/** Sends one request; an "error" response throws with the §6.4 wording. `spent` collects its usage. */
async function call(
  summarize: Summarize,
  req: SummarizeRequest & { kind: Kind },
  spent: Spent,
): Promise<Exclude<SummarizeResponse, { stopReason: "error" }>> {
  const response = await summarize(req);
  if ("usage" in response && response.usage) {
    spent.usage.push(response.usage);
    spent.model ??= response.model;
  }
  if (response.stopReason === "error") {
    throw new Error(`${FAILURE_PREFIX[req.kind]}: ${response.errorMessage || "Unknown error"}`);
  }
  return response;
}

/** An aborted response has no text; the orchestrator discards the result anyway (§13). */
function textOf(response: SummarizeResponse): string {
  return "text" in response ? response.text : "";
}

export async function compact(
  preparation: CompactionPreparation,
  deps: CompactDeps,
  opts: CompactOptions = {},
): Promise<CompactionResult> {
  const { summarize, prompts } = deps;
  const { messagesToSummarize, turnPrefixMessages, recentMessages, previousSummary } = preparation;
  const { customInstructions, promptOverride, extraContext, signal } = opts;
  const budgets = compactionBudgets(preparation.settings.reserveTokens);
  // Static templates: rendered once per compaction, with no variables (session-engine.md §17).
  const systemPrompt = renderTemplate(prompts.summarizationSystem);
  const spent: Spent = { usage: [] };

  // §19.2 (opt-in): each message names its entry and the prompt asks for [src: …] tags.
  const sources = preparation.settings.citeSources ? preparation.sourceIds : undefined;
  const cited = (messages: AgentMessage[], ids: string[] | undefined) =>
    ids ? `<conversation>\n${serializeWithSources(messages, ids, prompts)}\n</conversation>\n\n` : conversationBlock(messages, prompts);
  const citeSuffix = sources ? `\n\n${CITE_INSTRUCTION}` : "";

  const generateSummary = async (): Promise<HistorySummary> => {
    let base = promptOverride
      ? promptOverride
      : renderTemplate(previousSummary ? prompts.compactionUpdateSummary : prompts.compactionSummary);
    base += citeSuffix;
    if (customInstructions) base += `\n\nAdditional focus: ${customInstructions}`;
    const prompt =
      cited(messagesToSummarize, sources?.summarized) +
      previousSummaryBlock(previousSummary) +
      additionalContextBlock(extraContext) +
      base;
    const response = await call(summarize, {
      kind: "history",
      systemPrompt,
      prompt,
      maxTokens: budgets.history,
      reasoning: "high",
      signal,
    }, spent);
    return { text: textOf(response), shortSummary: "shortSummary" in response ? response.shortSummary : undefined };
  };

  const generateTurnPrefixSummary = async (): Promise<string> => {
    const prompt = cited(turnPrefixMessages, sources?.turnPrefix) + renderTemplate(prompts.compactionTurnPrefix) + citeSuffix;
    const response = await call(summarize, {
      kind: "turnPrefix",
      systemPrompt,
      prompt,
      maxTokens: budgets.turnPrefix,
      reasoning: "high",
      signal,
    }, spent);
    return textOf(response);
  };

  // Steps 1–4.
  let summary: string;
  let remoteShort: string | undefined;
  if (preparation.isSplitTurn && turnPrefixMessages.length > 0) {
    // The two halves are independent, so they run in parallel (session-engine.md §6.1 step 1).
    const [history, prefix] = await Promise.all([
      messagesToSummarize.length > 0 ? generateSummary() : Promise.resolve<HistorySummary>({ text: NO_PRIOR_HISTORY }),
      generateTurnPrefixSummary(),
    ]);
    summary = history.text + SPLIT_TURN_SEPARATOR + prefix;
    remoteShort = history.shortSummary;
  } else if (messagesToSummarize.length > 0) {
    const history = await generateSummary();
    summary = history.text;
    remoteShort = history.shortSummary;
  } else if (previousSummary) {
    // Nothing new to fold in: reuse the previous summary verbatim, with no model call.
    summary = previousSummary;
  } else {
    summary = NO_PRIOR_HISTORY;
  }

  // Step 5: the short summary sees the summary before the file lists are appended.
  let shortSummary: string;
  if (remoteShort) {
    shortSummary = remoteShort;
  } else {
    const prompt =
      conversationBlock(recentMessages, prompts) +
      previousSummaryBlock(summary) +
      additionalContextBlock(extraContext) +
      renderTemplate(prompts.compactionShortSummary);
    const response = await call(summarize, {
      kind: "short",
      systemPrompt,
      prompt,
      maxTokens: budgets.short,
      reasoning: "high",
      signal,
    }, spent);
    shortSummary = textOf(response);
  }

  // Step 6: appended in every case, including a reused previous summary (§18 "kept on purpose").
  const { readFiles, modifiedFiles } = computeFileLists(preparation.fileOps);
  summary += formatFileOperations(readFiles, modifiedFiles);

  // Step 7.
  if (!preparation.firstKeptEntryId) throw new Error("First kept entry has no ID - session may need migration");

  return {
    summary,
    shortSummary,
    firstKeptEntryId: preparation.firstKeptEntryId,
    tokensBefore: preparation.tokensBefore,
    details: { readFiles, modifiedFiles },
    // §19: only when pinned entries are carried, so a result without pins is exactly §6's.
    ...(preparation.pinnedEntryIds?.length ? { pinnedEntryIds: preparation.pinnedEntryIds } : {}),
    ...(spent.usage.length ? { usage: sumUsage(spent.usage) } : {}),
    ...(spent.usage.length && spent.model ? { model: spent.model } : {}),
  };
}
