/**
 * Row text and searchable text of tree-navigator rows (session-engine.md §16.2, §16.3 "Search").
 * Pure: no network, disk or database access. Shared by the CLI `tree` command and the web
 * canvas/list, so both show exactly the same words for an entry.
 *
 * Every function here is defensive about shapes: session files come from other tools, so a
 * field with an unexpected type degrades to an empty string instead of throwing.
 */
import type { SessionEntry, ToolCall } from "@/lib/session/types";
import { archiveOf } from "@/lib/session/archives";
import { pinOf } from "@/lib/session/pins";

/** Context a row needs beyond its own entry: tool results are described by their call. */
export interface RowTextContext {
  toolCallsById: ReadonlyMap<string, ToolCall>;
}

/** User/assistant rows take their text from the first 200 characters of content (§16.2). */
export const ROW_CONTENT_CHARS = 200;
/** An assistant without text shows at most this much of its errorMessage (§16.2). */
export const ROW_ERROR_CHARS = 80;
const BASH_CHARS = 50;
const OTHER_ARGS_CHARS = 40;

/** §16.2: `\n` and `\t` become spaces, then the text is trimmed. */
export function normalizeRowText(text: string): string {
  return text.replace(/[\n\t]/g, " ").trim();
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null;
}

function str(v: unknown): string {
  return typeof v === "string" ? v : "";
}

/**
 * Text of a `content` field: a string, or its text blocks joined with "" (images and other
 * blocks contribute nothing). With `limit`, stops collecting once `limit` characters are
 * reached so a huge tool output is never concatenated in full just to show 200 characters.
 */
export function contentText(content: unknown, limit = Number.POSITIVE_INFINITY): string {
  if (typeof content === "string") return content.length > limit ? content.slice(0, limit) : content;
  if (!Array.isArray(content)) return "";
  let out = "";
  for (const block of content) {
    if (isRecord(block) && block.type === "text" && typeof block.text === "string") {
      out += block.text;
      if (out.length >= limit) return out.slice(0, limit);
    }
  }
  return out;
}

/** True when some text block (or string content) has a non-whitespace character (§16.3). */
export function hasNonWhitespaceText(content: unknown): boolean {
  if (typeof content === "string") return content.trim() !== "";
  if (!Array.isArray(content)) return false;
  return content.some((b) => isRecord(b) && b.type === "text" && typeof b.text === "string" && b.text.trim() !== "");
}

/** Truncate to `max` characters, adding `...` only when something was cut (§16.2). */
function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}...` : text;
}

/**
 * One linear pass collecting every assistant tool call by id, so each toolResult row can be
 * described by the call it answers (§16.2). A later duplicate id overrides an earlier one.
 */
export function buildToolCallIndex(entries: Iterable<SessionEntry>): Map<string, ToolCall> {
  const index = new Map<string, ToolCall>();
  for (const entry of entries) addToolCalls(entry, index);
  return index;
}

/** Adds the tool calls of one entry (if it is an assistant message) to `index`. */
export function addToolCalls(entry: SessionEntry, index: Map<string, ToolCall>): void {
  if (entry.type !== "message") return;
  const msg = entry.message as unknown;
  if (!isRecord(msg) || msg.role !== "assistant" || !Array.isArray(msg.content)) return;
  for (const block of msg.content) {
    if (isRecord(block) && block.type === "toolCall" && typeof block.id === "string") {
      index.set(block.id, block as unknown as ToolCall);
    }
  }
}

/**
 * `[read: path:start-end]` etc. (§16.2). For `read`, a range is shown when `offset` or
 * `limit` is set: `start = offset ?? 1`, and `-end` (`start + limit - 1`) only with a limit,
 * so an offset alone gives `path:start`.
 */
export function toolCallText(call: ToolCall): string {
  const args: Record<string, unknown> = isRecord(call.arguments) ? call.arguments : {};
  const path = normalizeRowText(str(args.path));
  switch (call.name) {
    case "read": {
      const offset = typeof args.offset === "number" ? args.offset : undefined;
      const limit = typeof args.limit === "number" ? args.limit : undefined;
      let shown = path;
      if (offset !== undefined || limit !== undefined) {
        const start = offset ?? 1;
        shown += `:${start}`;
        if (limit !== undefined) shown += `-${start + limit - 1}`;
      }
      return `[read: ${shown}]`;
    }
    case "write":
      return `[write: ${path}]`;
    case "edit":
      return `[edit: ${path}]`;
    case "bash":
      return `[bash: ${clip(normalizeRowText(str(args.command)), BASH_CHARS)}]`;
    case "grep":
      return `[grep: /${normalizeRowText(str(args.pattern))}/ in ${path || "."}]`;
    case "find":
      return `[find: ${normalizeRowText(str(args.pattern))} in ${path || "."}]`;
    case "ls":
      return `[ls: ${path || "."}]`;
    default:
      return `[${call.name}: ${clip(normalizeRowText(JSON.stringify(args) ?? ""), OTHER_ARGS_CHARS)}]`;
  }
}

/** One call as `name(argument)` for a tool-call-only assistant row (§16.2): the path, command or pattern. */
export function callSummary(call: ToolCall): string {
  const args: Record<string, unknown> = isRecord(call.arguments) ? call.arguments : {};
  const name = normalizeRowText(str(call.name)) || "tool";
  switch (call.name) {
    case "read":
    case "write":
    case "edit":
    case "ls":
      return `${name}(${normalizeRowText(str(args.path))})`;
    case "bash":
      return `${name}(${clip(normalizeRowText(str(args.command)), BASH_CHARS)})`;
    case "grep":
    case "find":
      return `${name}(${normalizeRowText(str(args.pattern))})`;
    default:
      return `${name}(${clip(normalizeRowText(JSON.stringify(args) ?? ""), OTHER_ARGS_CHARS)})`;
  }
}

/**
 * An assistant message's tool calls as `read(src/a.ts), bash(npm test)`, within
 * ROW_CONTENT_CHARS (`...` when cut); "" when it has none.
 */
export function toolCallsSummary(content: unknown): string {
  if (!Array.isArray(content)) return "";
  let out = "";
  for (const block of content) {
    if (!isRecord(block) || block.type !== "toolCall") continue;
    out += `${out ? ", " : ""}${callSummary(block as unknown as ToolCall)}`;
    if (out.length > ROW_CONTENT_CHARS) return `${out.slice(0, ROW_CONTENT_CHARS)}...`;
  }
  return out;
}

function modelChangeText(entry: SessionEntry): string {
  if (typeof entry.model === "string") return entry.model;
  // Legacy v1/pi entries carry provider + modelId instead of `model` (§1.4).
  return `${str(entry.provider)}/${str(entry.modelId)}`;
}

function messageRowText(msg: unknown, ctx: RowTextContext): string {
  if (!isRecord(msg)) return "[message]";
  switch (msg.role) {
    case "user":
      return `user: ${normalizeRowText(contentText(msg.content, ROW_CONTENT_CHARS))}`;
    case "assistant": {
      const text = normalizeRowText(contentText(msg.content, ROW_CONTENT_CHARS));
      if (text) return `assistant: ${text}`;
      if (msg.stopReason === "aborted") return "assistant: (aborted)";
      const error = normalizeRowText(str(msg.errorMessage));
      if (error) return `assistant: ${error.slice(0, ROW_ERROR_CHARS)}`;
      const calls = toolCallsSummary(msg.content);
      return calls ? `assistant: ${calls}` : "assistant: (no content)";
    }
    case "toolResult": {
      const call = typeof msg.toolCallId === "string" ? ctx.toolCallsById.get(msg.toolCallId) : undefined;
      if (call) return toolCallText(call);
      const name = str(msg.toolName);
      return name ? `[${name}]` : "[tool]";
    }
    case "bashExecution":
      return `[bash]: ${normalizeRowText(str(msg.command))}`;
    default:
      return `[${str(msg.role)}]`;
  }
}

/**
 * The row text of an entry, without the `[label] ` prefix (§16.2). Entry types the table does
 * not list (session_init, mode_change, ttsr_injection, session_info, unknown) show `[<type>]`.
 */
export function rowText(entry: SessionEntry, ctx: RowTextContext): string {
  switch (entry.type) {
    case "message":
      return messageRowText(entry.message, ctx);
    case "custom_message":
      return `[${str(entry.customType)}]: ${normalizeRowText(contentText(entry.content, ROW_CONTENT_CHARS))}`;
    case "compaction": {
      const tokens = typeof entry.tokensBefore === "number" ? entry.tokensBefore : 0;
      return `[compaction: ${Math.round(tokens / 1000)}k tokens]`;
    }
    case "branch_summary":
      return `[branch summary]: ${normalizeRowText(str(entry.summary))}`;
    case "model_change":
      return `[model: ${modelChangeText(entry)}]`;
    case "thinking_level_change":
      return `[thinking: ${str(entry.thinkingLevel)}]`;
    case "custom": {
      // A pin entry (session-engine.md §19) names what it pins or unpins.
      const pin = pinOf(entry);
      if (pin) return `[${pin.pinned ? "pin" : "unpin"}: ${pin.targetId}]`;
      // An archive entry (§19.4) names the branch it archives or restores.
      const archive = archiveOf(entry);
      if (archive) return `[${archive.archived ? "archive" : "restore"}: ${archive.targetId}]`;
      return `[custom: ${str(entry.customType)}]`;
    }
    case "label": {
      const label = str(entry.label);
      return `[label: ${label || "(cleared)"}]`;
    }
    default:
      return `[${String((entry as { type: unknown }).type)}]`;
  }
}

/** Row text with the `[label] ` prefix that labelled rows carry (§16.1). */
export function displayText(text: string, label: string | undefined): string {
  return label ? `[${label}] ${text}` : text;
}

function messageSearchText(msg: unknown): string {
  if (!isRecord(msg)) return "";
  const parts = [str(msg.role), contentText(msg.content)];
  if (msg.role === "bashExecution") parts.push(str(msg.command));
  return parts.join(" ");
}

/**
 * The searchable text of an entry, not yet lowercased (§16.3): the label, then per type
 * the role + content text (+ bash command) of messages, `customType` + text of custom
 * messages, `compaction`, `branch summary` + summary, `model <model>`, `thinking <level>`,
 * `custom <customType>`, `label <label>`; other types contribute their type name.
 */
export function searchableText(entry: SessionEntry, label: string | undefined): string {
  let body: string;
  switch (entry.type) {
    case "message":
      body = messageSearchText(entry.message);
      break;
    case "custom_message":
      body = `${str(entry.customType)} ${contentText(entry.content)}`;
      break;
    case "compaction":
      body = "compaction";
      break;
    case "branch_summary":
      body = `branch summary ${str(entry.summary)}`;
      break;
    case "model_change":
      body = `model ${modelChangeText(entry)}`;
      break;
    case "thinking_level_change":
      body = `thinking ${str(entry.thinkingLevel)}`;
      break;
    case "custom": {
      const pin = pinOf(entry);
      const archive = archiveOf(entry);
      body = pin
        ? `${pin.pinned ? "pin" : "unpin"} ${pin.targetId}`
        : archive
          ? `${archive.archived ? "archive" : "restore"} ${archive.targetId}`
          : `custom ${str(entry.customType)}`;
      break;
    }
    case "label":
      body = `label ${str(entry.label)}`;
      break;
    default:
      body = String((entry as { type: unknown }).type);
  }
  return label ? `${label} ${body}` : body;
}
