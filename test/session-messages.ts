/**
 * Message factories for tests (session-engine.md §1.5), re-exported by session-factories.ts: import them from
 * "@/test/session-factories". Not used by production code.
 * Pure: no network, disk or database access.
 */

import type {
  AssistantMessage,
  BashExecutionMessage,
  CustomMessage,
  ImageContent,
  StopReason,
  TextContent,
  ToolCall,
  ToolResultMessage,
  Usage,
  UserMessage,
} from "@/lib/session/types";

/** 2025-01-01T00:00:00.000Z in epoch ms: the origin of every default timestamp. */
export const BASE_TIME = Date.UTC(2025, 0, 1, 0, 0, 0);

// ── Message content ────────────────────────────────────────────────────────

export function text(value: string): TextContent {
  return { type: "text", text: value };
}

export function image(data = "aGVsbG8=", mimeType = "image/png"): ImageContent {
  return { type: "image", data, mimeType };
}

export function toolCall(id: string, name: string, args: Record<string, unknown> = {}): ToolCall {
  return { type: "toolCall", id, name, arguments: args };
}

/** A Usage with zeros for every field not given. */
export function usage(partial: Partial<Usage> = {}): Usage {
  return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, ...partial };
}

// ── Messages (session-engine.md §1.5) ───────────────────────────────────────────────────

export function userMsg(
  content: string | (TextContent | ImageContent)[],
  opts: { timestamp?: number; synthetic?: boolean } = {},
): UserMessage {
  const msg: UserMessage = { role: "user", content, timestamp: opts.timestamp ?? BASE_TIME };
  if (opts.synthetic !== undefined) msg.synthetic = opts.synthetic;
  return msg;
}

export interface AssistantOpts {
  provider?: string;
  model?: string;
  api?: string;
  usage?: Partial<Usage>;
  stopReason?: StopReason;
  /** Tool calls appended after the text block. */
  toolCalls?: ToolCall[];
  /** A thinking block placed before the text block. */
  thinking?: string;
  errorMessage?: string;
  timestamp?: number;
}

/**
 * An assistant message. Defaults: provider "anthropic", model "claude-sonnet-4-5",
 * api "anthropic-messages", zero usage, stopReason "stop" ("toolUse" when toolCalls are given).
 * An empty `text` produces no text block.
 */
export function assistantMsg(value = "", opts: AssistantOpts = {}): AssistantMessage {
  const content: AssistantMessage["content"] = [];
  if (opts.thinking !== undefined) content.push({ type: "thinking", thinking: opts.thinking });
  if (value !== "") content.push(text(value));
  if (opts.toolCalls) content.push(...opts.toolCalls);
  const msg: AssistantMessage = {
    role: "assistant",
    content,
    api: opts.api ?? "anthropic-messages",
    provider: opts.provider ?? "anthropic",
    model: opts.model ?? "claude-sonnet-4-5",
    usage: usage(opts.usage),
    stopReason: opts.stopReason ?? (opts.toolCalls?.length ? "toolUse" : "stop"),
    timestamp: opts.timestamp ?? BASE_TIME,
  };
  if (opts.errorMessage !== undefined) msg.errorMessage = opts.errorMessage;
  return msg;
}

export function toolResultMsg(
  toolCallId: string,
  value: string | (TextContent | ImageContent)[],
  opts: { toolName?: string; isError?: boolean; prunedAt?: number; details?: unknown; timestamp?: number } = {},
): ToolResultMessage {
  const msg: ToolResultMessage = {
    role: "toolResult",
    toolCallId,
    toolName: opts.toolName ?? "read",
    content: typeof value === "string" ? [text(value)] : value,
    isError: opts.isError ?? false,
    timestamp: opts.timestamp ?? BASE_TIME,
  };
  if (opts.prunedAt !== undefined) msg.prunedAt = opts.prunedAt;
  if (opts.details !== undefined) msg.details = opts.details;
  return msg;
}

export function bashMsg(
  command: string,
  output: string,
  opts: Partial<Omit<BashExecutionMessage, "role" | "command" | "output">> = {},
): BashExecutionMessage {
  return {
    role: "bashExecution",
    command,
    output,
    exitCode: 0,
    cancelled: false,
    truncated: false,
    timestamp: BASE_TIME,
    ...opts,
  };
}

export function customMsg(
  customType: string,
  content: CustomMessage["content"],
  opts: { display?: boolean; details?: unknown; timestamp?: number } = {},
): CustomMessage {
  const msg: CustomMessage = {
    role: "custom",
    customType,
    content,
    display: opts.display ?? true,
    timestamp: opts.timestamp ?? BASE_TIME,
  };
  if (opts.details !== undefined) msg.details = opts.details;
  return msg;
}
