/**
 * Claude Code message content → Arbor message content (session-engine.md §1.5).
 * Pure: no network, disk or database access.
 *
 * - user content: a string, or blocks: `text`, `image` (`source.type: "base64"`), `tool_result`
 *   (`tool_use_id`, `content` string or blocks, `is_error`). Tool results are split out: Arbor
 *   stores one toolResult message per call.
 * - assistant content: `text`, `thinking` (+ `signature`, an Anthropic signature, so it becomes
 *   `thinkingSignature`), `tool_use` (`id`, `name`, `input`). Blocks Arbor has no shape for
 *   (`redacted_thinking`, server tool blocks, …) are returned in `unmodelled`, to be kept on the entry.
 * - usage: `input_tokens`, `output_tokens`, `cache_read_input_tokens`,
 *   `cache_creation_input_tokens` → input / output / cacheRead / cacheWrite.
 */
import type { ImageContent, StopReason, TextContent, ThinkingContent, ToolCall, Usage } from "@/lib/session/types";
import { isObject, type JsonObject, num, str } from "@/lib/formats/types";

export interface ToolResultBlock {
  toolUseId: string;
  content: (TextContent | ImageContent)[];
  isError: boolean;
  /** Keys of the block Arbor does not model. */
  extra: JsonObject | undefined;
}

export interface UserContent {
  parts: (TextContent | ImageContent)[];
  toolResults: ToolResultBlock[];
  unmodelled: unknown[];
}

function image(block: JsonObject): ImageContent | undefined {
  const source = block.source;
  if (!isObject(source)) return undefined;
  if (source.type === "base64" && typeof source.data === "string") {
    return { type: "image", data: source.data, mimeType: str(source.media_type) ?? "image/png" };
  }
  if (source.type === "url" && typeof source.url === "string") return { type: "image", data: source.url, mimeType: str(source.media_type) ?? "image/png" };
  return undefined;
}

function resultContent(content: unknown): (TextContent | ImageContent)[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  if (!Array.isArray(content)) return [];
  const out: (TextContent | ImageContent)[] = [];
  for (const b of content) {
    if (!isObject(b)) continue;
    if (b.type === "text" && typeof b.text === "string") out.push({ type: "text", text: b.text });
    else if (b.type === "image") {
      const img = image(b);
      if (img) out.push(img);
    } else out.push({ type: "text", text: JSON.stringify(b) });
  }
  return out;
}

export function userContent(content: unknown): UserContent {
  if (typeof content === "string") return { parts: [{ type: "text", text: content }], toolResults: [], unmodelled: [] };
  const out: UserContent = { parts: [], toolResults: [], unmodelled: [] };
  if (!Array.isArray(content)) return out;
  for (const b of content) {
    if (!isObject(b)) {
      out.unmodelled.push(b);
    } else if (b.type === "text" && typeof b.text === "string") {
      out.parts.push({ type: "text", text: b.text });
    } else if (b.type === "image" && image(b)) {
      out.parts.push(image(b)!);
    } else if (b.type === "tool_result" && typeof b.tool_use_id === "string") {
      const { type: _t, tool_use_id: _id, content: _c, is_error: _e, ...extra } = b;
      out.toolResults.push({
        toolUseId: b.tool_use_id,
        content: resultContent(b.content),
        isError: b.is_error === true,
        extra: Object.keys(extra).length > 0 ? extra : undefined,
      });
    } else {
      out.unmodelled.push(b);
    }
  }
  return out;
}

export interface AssistantContent {
  parts: (TextContent | ThinkingContent | ToolCall)[];
  unmodelled: unknown[];
}

export function assistantContent(content: unknown): AssistantContent {
  const out: AssistantContent = { parts: [], unmodelled: [] };
  if (typeof content === "string") {
    out.parts.push({ type: "text", text: content });
    return out;
  }
  if (!Array.isArray(content)) return out;
  for (const b of content) {
    if (isObject(b) && b.type === "text" && typeof b.text === "string") {
      out.parts.push({ type: "text", text: b.text });
    } else if (isObject(b) && b.type === "thinking" && typeof b.thinking === "string") {
      out.parts.push({ type: "thinking", thinking: b.thinking, ...(typeof b.signature === "string" ? { thinkingSignature: b.signature } : {}) });
    } else if (isObject(b) && b.type === "tool_use" && typeof b.id === "string") {
      const input = isObject(b.input) ? b.input : { input: b.input };
      out.parts.push({ type: "toolCall", id: b.id, name: str(b.name) ?? "unknown", arguments: input });
    } else {
      out.unmodelled.push(b);
    }
  }
  return out;
}

export function claudeUsage(u: unknown): Usage {
  if (!isObject(u)) return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0 };
  const usage = {
    input: num(u.input_tokens),
    output: num(u.output_tokens),
    cacheRead: num(u.cache_read_input_tokens),
    cacheWrite: num(u.cache_creation_input_tokens),
  };
  return { ...usage, totalTokens: usage.input + usage.output + usage.cacheRead + usage.cacheWrite };
}

/** Anthropic's stop_reason → Arbor's; a missing one is inferred from the content. */
export function claudeStopReason(reason: unknown, hasToolCall: boolean): StopReason {
  switch (reason) {
    case "end_turn":
    case "stop_sequence":
    case "pause_turn":
      return hasToolCall ? "toolUse" : "stop";
    case "tool_use":
      return "toolUse";
    case "max_tokens":
    case "model_context_window_exceeded":
      return "length";
    case "refusal":
      return "error";
    default:
      return hasToolCall ? "toolUse" : "stop";
  }
}

/**
 * User records Claude Code writes itself, not typed by a person: a local command's output or
 * caveat, a background task's notification, the interruption note, bash-mode output. Mapped as
 * synthetic user messages (still sent to a model, as Claude Code sent them).
 */
const MACHINE_TEXT = /^\s*(?:<local-command-(?:stdout|stderr|caveat)>|<task-notification>|<bash-(?:stdout|stderr)>|\[Request interrupted by user)/;

export function isClaudeMachineText(parts: readonly (TextContent | ImageContent)[]): boolean {
  const first = parts.find((p) => p.type === "text");
  return first !== undefined && first.type === "text" && MACHINE_TEXT.test(first.text) && parts.every((p) => p.type === "text");
}
