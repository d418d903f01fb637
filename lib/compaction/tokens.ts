/**
 * Token accounting (session-engine.md §4).
 * Pure: no network, disk or database access.
 *
 * Two kinds of number live here: a character-based estimate (`chars / 4`, a deliberate
 * overestimate) for messages the provider has not counted yet, and usage-based numbers taken
 * from the provider's report on an assistant message.
 */
import type { CompactionSettings } from "@/lib/compaction/summarize-types";
import type { AgentMessage, AssistantMessage, SessionEntry, ToolResultMessage, Usage } from "@/lib/session/types";

/** Characters charged per image in tool results and custom messages (session-engine.md §4). */
export const IMAGE_CHARS = 4800;

type Block = { type: string; text?: unknown };

/** Text length of string or block content; `imageChars` per image block. */
function contentChars(content: unknown, imageChars: number): number {
  if (typeof content === "string") return content.length;
  if (!Array.isArray(content)) return 0;
  let chars = 0;
  for (const block of content as Block[]) {
    if (block?.type === "text" && typeof block.text === "string") chars += block.text.length;
    else if (block?.type === "image") chars += imageChars;
  }
  return chars;
}

function assistantChars(content: AssistantMessage["content"] | undefined): number {
  if (!Array.isArray(content)) return 0;
  let chars = 0;
  for (const block of content) {
    if (block.type === "text") chars += block.text.length;
    else if (block.type === "thinking") chars += block.thinking.length;
    else if (block.type === "toolCall") chars += block.name.length + JSON.stringify(block.arguments ?? {}).length;
  }
  return chars;
}

/**
 * `Math.ceil(chars / 4)` with the per-role `chars` of session-engine.md §4. User images count 0 (kept from
 * oh-my-pi on purpose); `custom` is charged like `hookMessage` (deliberate, §18.3).
 */
export function estimateTokens(message: AgentMessage): number {
  let chars = 0;
  switch (message.role) {
    case "user":
      chars = contentChars(message.content, 0);
      break;
    case "assistant":
      chars = assistantChars(message.content);
      break;
    case "toolResult":
    case "custom":
    case "hookMessage":
      chars = contentChars(message.content, IMAGE_CHARS);
      break;
    case "bashExecution":
      chars = (message.command?.length ?? 0) + (message.output?.length ?? 0);
      break;
    case "branchSummary":
    case "compactionSummary":
      chars = message.summary?.length ?? 0;
      break;
    default:
      // pythonExecution, fileMention and unknown roles count 0 (session-engine.md §4).
      chars = 0;
  }
  return Math.ceil(chars / 4);
}

/** The same estimate for a plain text: `Math.ceil(length / 4)` (summaries, notices, a system prompt). */
export function estimateTextTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/**
 * estimateTokens of a tool result, remembered per message object while its `content` is the same
 * array. The prune check (§8) and the next-turn preview measure every result of a branch each
 * time; a result's estimate depends on its content alone, which pruning and restoring replace
 * (a new array, even when done in place), so a remembered figure is never stale. Weak: it never
 * keeps a message alive.
 */
const toolResultMemo = new WeakMap<ToolResultMessage, { content: ToolResultMessage["content"]; tokens: number }>();
export function toolResultTokens(message: ToolResultMessage): number {
  const known = toolResultMemo.get(message);
  if (known && known.content === message.content) return known.tokens;
  const tokens = estimateTokens(message);
  toolResultMemo.set(message, { content: message.content, tokens });
  return tokens;
}

/** Total context size the provider reported (session-engine.md §4). `||` on purpose: 0 means "missing". */
export function calculateContextTokens(usage: Usage): number {
  return usage.totalTokens || usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
}

/** Prompt-side tokens only; falls back to the context total when the split is unknown (session-engine.md §4). */
export function calculatePromptTokens(usage: Usage): number {
  const prompt = usage.input + usage.cacheRead + usage.cacheWrite;
  return prompt > 0 ? prompt : calculateContextTokens(usage);
}

/**
 * Usage of the newest assistant whose numbers can be trusted: aborted and errored responses are
 * skipped because their usage does not describe a full context (session-engine.md §4).
 */
export function getLastAssistantUsage(entries: SessionEntry[]): Usage | undefined {
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i];
    if (entry?.type !== "message") continue;
    const message = entry.message;
    if (message.role !== "assistant" || !message.usage) continue;
    if (message.stopReason === "aborted" || message.stopReason === "error") continue;
    return message.usage;
  }
  return undefined;
}

/** Threshold check: compact once fewer than `reserveTokens` remain (session-engine.md §4). */
export function shouldCompact(
  contextTokens: number,
  contextWindow: number,
  settings: Pick<CompactionSettings, "enabled" | "reserveTokens">,
): boolean {
  return settings.enabled && contextTokens > contextWindow - settings.reserveTokens;
}

export interface ContextTokenEstimate {
  tokens: number;
  /** Context total from the last assistant usage, or 0 when there is none. */
  usageTokens: number;
  /** Estimated tokens of the messages after that assistant (all messages when there is none). */
  trailingTokens: number;
  /** Index into `messages` of the assistant whose usage was used, or null. */
  lastUsageIndex: number | null;
}

export interface ContextUsage extends ContextTokenEstimate {
  contextWindow: number;
  percent: number;
}

/**
 * Estimate of the working context for the UI (session-engine.md §4): provider usage of the last assistant
 * that has one — aborted and error messages are NOT skipped here — plus estimates after it.
 */
export function estimateContextTokens(messages: AgentMessage[]): ContextTokenEstimate {
  let lastUsageIndex: number | null = null;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message?.role === "assistant" && message.usage) {
      lastUsageIndex = i;
      break;
    }
  }
  let trailingTokens = 0;
  for (let i = lastUsageIndex === null ? 0 : lastUsageIndex + 1; i < messages.length; i++) {
    const message = messages[i];
    if (message) trailingTokens += estimateTokens(message);
  }
  const last = lastUsageIndex === null ? undefined : messages[lastUsageIndex];
  const usageTokens = last?.role === "assistant" ? calculateContextTokens(last.usage) : 0;
  return { tokens: usageTokens + trailingTokens, usageTokens, trailingTokens, lastUsageIndex };
}

/** Context usage for the UI; undefined without a model (no window) or with a window <= 0 (session-engine.md §4). */
export function getContextUsage(messages: AgentMessage[], contextWindow: number | undefined): ContextUsage | undefined {
  if (contextWindow === undefined || !(contextWindow > 0)) return undefined;
  const estimate = estimateContextTokens(messages);
  return { ...estimate, contextWindow, percent: (estimate.tokens / contextWindow) * 100 };
}
