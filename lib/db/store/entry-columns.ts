import "server-only";
/**
 * The query columns of an entry row, derived from the entry itself, and the sanitizing every
 * write goes through (session-engine.md §1.9).
 *
 * Contract:
 * - `toEntryRow(entry)` sanitizes first (`sanitizeForPersist`: streaming keys dropped, huge
 *   strings cut), then derives every column from the sanitized copy, so `data` and the columns
 *   always agree. The input is never mutated.
 * - `tokens` = estimateTokens (session-engine.md §4) of what the entry puts into the context: the message of a
 *   `message`, the summary message of `compaction` / `branch_summary`, the custom message of a
 *   `custom_message`; 0 otherwise.
 * - `text` = plain text for full-text search and previews: user / assistant / custom text blocks,
 *   tool-result text, bash command + output, python code + output, file-mention paths,
 *   summaries, session names and labels; capped at TEXT_LIMIT characters; null when empty.
 * - Nothing here throws on malformed data (imported files can hold anything): a column that
 *   cannot be derived is null / 0.
 */
import { estimateTokens } from "@/lib/compaction/tokens";
import { type PersistCuts, sanitizeForPersist } from "@/lib/session/file/sanitize";
import { toPgText } from "../pg-json";
import type { AgentMessage, SessionEntry } from "@/lib/session/types";
import { modelRef } from "@/lib/session/model-ref";

/** Longest `text` column value, in UTF-16 code units. */
export const TEXT_LIMIT = 100_000;

export interface EntryRow {
  id: string;
  parentId: string | null;
  type: string;
  timestamp: string;
  role: string | null;
  tokens: number;
  text: string | null;
  /** The sanitized entry, stored as JSONB. */
  data: SessionEntry;
}

type Loose = Record<string, unknown>;

/**
 * A stored entry from its `data` column, which holds JSON text (text, not json: migration
 * 20270128000001); every writer stores JSON it produced or parsed, so this parse cannot fail
 * on a row a writer of this project wrote.
 */
export function entryOf(data: string): SessionEntry {
  return JSON.parse(data) as SessionEntry;
}

function isObject(v: unknown): v is Loose {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Text of string content or of its `text` blocks, joined with "\n". */
function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const parts: string[] = [];
  for (const block of content) {
    if (isObject(block) && block.type === "text" && typeof block.text === "string") parts.push(block.text);
  }
  return parts.join("\n");
}

function str(v: unknown): string {
  return typeof v === "string" ? v : "";
}

function join(...parts: string[]): string {
  return parts.filter((p) => p !== "").join("\n");
}

function messageText(message: Loose): string {
  switch (message.role) {
    case "user":
    case "assistant":
    case "toolResult":
    case "custom":
    case "hookMessage":
      return contentText(message.content);
    case "bashExecution":
      return join(str(message.command), str(message.output));
    case "pythonExecution":
      return join(str(message.code), str(message.output));
    case "fileMention":
      return Array.isArray(message.files) ? join(...message.files.map((f) => (isObject(f) ? str(f.path) : ""))) : "";
    case "compactionSummary":
    case "branchSummary":
      return str(message.summary);
    default:
      return "";
  }
}

/** Cuts to `limit` code units without splitting a surrogate pair. */
function cap(text: string, limit = TEXT_LIMIT): string {
  if (text.length <= limit) return text;
  const code = text.charCodeAt(limit - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? limit - 1 : limit);
}

/** Plain text of an entry (before the cap). */
export function entryText(entry: Loose): string {
  switch (entry.type) {
    case "message":
      return isObject(entry.message) ? messageText(entry.message) : "";
    case "custom_message":
      return contentText(entry.content);
    case "compaction":
    case "branch_summary":
      return str(entry.summary);
    case "session_info":
      return str(entry.name);
    case "label":
      return str(entry.label);
    default:
      return "";
  }
}

function safeEstimate(message: unknown): number {
  if (!isObject(message) || typeof message.role !== "string") return 0;
  try {
    const n = estimateTokens(message as unknown as AgentMessage);
    return Number.isFinite(n) ? n : 0;
  } catch {
    // Malformed content (e.g. a tool call without a name) has no meaningful estimate.
    return 0;
  }
}

/** The estimate of what the entry contributes to the context (session-engine.md §4), 0 if nothing. */
export function entryTokens(entry: Loose): number {
  const timestamp = 0;
  switch (entry.type) {
    case "message":
      return safeEstimate(entry.message);
    case "compaction":
      return safeEstimate({ role: "compactionSummary", summary: str(entry.summary), tokensBefore: 0, timestamp });
    case "branch_summary":
      return safeEstimate({ role: "branchSummary", summary: str(entry.summary), fromId: "", timestamp });
    case "custom_message":
      return safeEstimate({ role: "custom", content: entry.content ?? "", timestamp });
    default:
      return 0;
  }
}

/**
 * "provider/model" when the entry tells which model is in use: an assistant message, or a
 * model_change (current `model`, or the legacy `provider` + `modelId`). Otherwise undefined.
 */
export function entryModel(entry: Loose): string | undefined {
  const model = rawModel(entry);
  return model === undefined ? undefined : toPgText(model);
}

function rawModel(entry: Loose): string | undefined {
  if (entry.type === "message" && isObject(entry.message) && entry.message.role === "assistant") {
    const { provider, model } = entry.message;
    if (typeof provider === "string" && typeof model === "string" && model !== "") return modelRef(provider, model);
    return undefined;
  }
  if (entry.type === "model_change") {
    if (typeof entry.model === "string" && entry.model !== "") return entry.model;
    if (typeof entry.provider === "string" && typeof entry.modelId === "string") return modelRef(entry.provider, entry.modelId);
  }
  return undefined;
}

/**
 * Sanitizes `entry` (session-engine.md §1.9) and derives the row's columns from the sanitized copy. `cuts`
 * (optional) counts the strings the sanitizing cut.
 */
export function toEntryRow(entry: SessionEntry, cuts?: PersistCuts): EntryRow {
  return rowOfSanitized(sanitizeForPersist(entry, cuts));
}

/**
 * The row of an entry that sanitizing would not change (the caller proved it: the import's
 * storableLine), used as it is: saves the deep copy. Else use toEntryRow.
 */
export function rowOfSanitized(data: SessionEntry): EntryRow {
  const loose = data as Loose;
  const text = cap(entryText(loose));
  const message = loose.message;
  return {
    id: data.id,
    parentId: typeof data.parentId === "string" ? data.parentId : null,
    type: data.type,
    timestamp: typeof data.timestamp === "string" ? data.timestamp : "",
    role: data.type === "message" && isObject(message) && typeof message.role === "string" ? message.role : null,
    tokens: entryTokens(loose),
    text: text === "" ? null : text,
    data,
  };
}
