/**
 * Small factories for compaction tests (and the convert / prompt-template tests).
 * Pure: no network, disk or database access. Not used by production code.
 *
 * Sizing: `words(n)` is 4n characters, i.e. exactly n estimated tokens (session-engine.md §4), so token
 * budgets in tests read as plain numbers.
 */
import type { CompactionSettings } from "@/lib/compaction/summarize-types";
import type {
  AgentMessage,
  AssistantMessage,
  BashExecutionMessage,
  ImageContent,
  PromptSet,
  SessionEntry,
  StopReason,
  TextContent,
  ToolCall,
  ToolResultMessage,
  Usage,
  UserMessage,
} from "@/lib/session/types";

export const T0 = Date.UTC(2025, 0, 1);

/** A string of exactly `tokens` estimated tokens (4 chars each). */
export function words(tokens: number): string {
  return "abcd".repeat(tokens);
}

export function img(data = "aGVsbG8="): ImageContent {
  return { type: "image", data, mimeType: "image/png" };
}

export function user(content: string | (TextContent | ImageContent)[]): UserMessage {
  return { role: "user", content, timestamp: T0 };
}

export function call(id: string, name: string, args: Record<string, unknown> = {}): ToolCall {
  return { type: "toolCall", id, name, arguments: args };
}

export function usage(partial: Partial<Usage> = {}): Usage {
  return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, ...partial };
}

export function assistant(
  text: string,
  opts: { calls?: ToolCall[]; usage?: Partial<Usage>; stopReason?: StopReason; thinking?: string } = {},
): AssistantMessage {
  const content: AssistantMessage["content"] = [];
  if (opts.thinking !== undefined) content.push({ type: "thinking", thinking: opts.thinking });
  if (text) content.push({ type: "text", text });
  content.push(...(opts.calls ?? []));
  return {
    role: "assistant",
    content,
    provider: "anthropic",
    model: "test-model",
    usage: usage(opts.usage),
    stopReason: opts.stopReason ?? (opts.calls?.length ? "toolUse" : "stop"),
    timestamp: T0,
  };
}

export function toolResult(
  toolCallId: string,
  content: string | (TextContent | ImageContent)[],
  opts: { toolName?: string; prunedAt?: number } = {},
): ToolResultMessage {
  const msg: ToolResultMessage = {
    role: "toolResult",
    toolCallId,
    toolName: opts.toolName ?? "bash",
    content: typeof content === "string" ? [{ type: "text", text: content }] : content,
    isError: false,
    timestamp: T0,
  };
  if (opts.prunedAt !== undefined) msg.prunedAt = opts.prunedAt;
  return msg;
}

export function bash(command: string, output: string, extra: Partial<BashExecutionMessage> = {}): BashExecutionMessage {
  return { role: "bashExecution", command, output, exitCode: 0, cancelled: false, truncated: false, timestamp: T0, ...extra };
}

/** An entry of any type; `parentId` is fixed up by `linked`. */
export function ent(type: string, id: string, fields: Record<string, unknown> = {}): SessionEntry {
  return { type, id, parentId: null, timestamp: new Date(T0).toISOString(), ...fields } as SessionEntry;
}

export function msg(id: string, message: AgentMessage): SessionEntry {
  return ent("message", id, { message });
}

/** Chains entries root-first (each parentId = the previous id), as a branch path is. */
export function linked(...entries: SessionEntry[]): SessionEntry[] {
  return linkAll(entries);
}

/** `linked` for an array (no spread, so 100k-entry paths are fine). */
export function linkAll(entries: SessionEntry[]): SessionEntry[] {
  return entries.map((e, i) => ({ ...e, parentId: i === 0 ? null : (entries[i - 1]?.id ?? null) }) as SessionEntry);
}

/** A plain alternating conversation of `turns` user/assistant pairs, each message `tokens` big. */
export function conversation(turns: number, tokens: number): SessionEntry[] {
  const out: SessionEntry[] = [];
  for (let t = 0; t < turns; t++) {
    out.push(msg(`u${t}`, user(words(tokens))));
    out.push(msg(`a${t}`, assistant(words(tokens))));
  }
  return linkAll(out);
}

export function settings(partial: Partial<CompactionSettings> = {}): CompactionSettings {
  return { enabled: true, reserveTokens: 16384, keepRecentTokens: 20000, autoContinue: true, ...partial };
}

/** Recognizable stand-ins for the nine templates; the two wrappers carry `{{summary}}`. */
export const TEST_PROMPTS: PromptSet = {
  compactionSummary: "SUMMARY-PROMPT",
  compactionUpdateSummary: "UPDATE-PROMPT",
  compactionTurnPrefix: "TURN-PREFIX-PROMPT",
  compactionShortSummary: "SHORT-PROMPT",
  compactionSummaryContext: "Recap follows.\n\n<summary>\n{{summary}}\n</summary>",
  branchSummaryContext: "Side path recap.\n\n<summary>\n{{summary}}\n</summary>",
  branchSummary: "BRANCH-PROMPT",
  branchSummaryPreamble: "PREAMBLE:",
  summarizationSystem: "SYSTEM-PROMPT",
};
