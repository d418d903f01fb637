/**
 * The skeleton of a session tree: per entry, only what the tree navigator (session-engine.md §16), the
 * canvas, the list view, the chat's page plan and the inspector's selection need — never the
 * entry's contents. The session page ships this instead of the entries; contents load on demand.
 * Pure: no network, disk or database access.
 *
 * Contract:
 * - `skeletonFacts(entry)` depends on that entry alone, so a server can compute it once per
 *   entry (skeleton-table.ts keeps the resolved rows packed and extends them after appends). A
 *   toolResult's row text names the call it answers, which lives in another entry: the facts
 *   carry the result's `toolCallId`, and `resolveSkeleton` (skeleton-resolve.ts) replaces the
 *   fallback text (`[toolName]`) with the call's text (§16.2) in one linear pass.
 * - `text` is the §16.2 row text clipped to ROW_TEXT_MAX characters (with "…"): the canvas shows
 *   two lines and the list one, and search runs on the full text elsewhere (search-text.ts).
 * - `tokens` is the canvas badge estimate (session-engine.md §4; summaries: summary chars / 4).
 */
import { estimateTextTokens, estimateTokens } from "@/lib/compaction/tokens";
import { isHiddenAssistant } from "@/lib/session/tree/tree-filter";
import { archiveOf } from "@/lib/session/archives";
import { pinOf } from "@/lib/session/pins";
import { promptLine } from "@/lib/session/prompt-title";
import { contentText, ROW_CONTENT_CHARS, rowText } from "@/lib/session/tree/tree-row-text";
import type { AgentMessage, SessionEntry, ToolCall } from "@/lib/session/types";

/** Longest row text the skeleton carries (two canvas lines, one list line). */
export const ROW_TEXT_MAX = 120;
/** Longest hover preview of a compaction or branch summary. */
export const PREVIEW_CHARS = 280;

/** Bits of `SkeletonEntry.flags`. */
export const FLAG = {
  /** §16.3 hidden assistant (no text, stop/toolUse); the caller exempts the current leaf. */
  hiddenAssistant: 1,
  /** A tool step that may fold into an "N tool steps" pill (components/tree/model/fold.ts). */
  toolStep: 2,
  /** An assistant that ended with stopReason "error" (or carries an errorMessage). */
  error: 4,
  /** Not shown in the chat (custom_message with display false, empty branch summary, settings, custom entries without a notice). */
  notInChat: 8,
  /** An assistant message with provider-reported usage (context meter, §4). */
  usage: 16,
  /** A failed tool: a toolResult with isError, or a bash/python execution that exited non-zero. */
  toolError: 32,
} as const;

export interface SkeletonEntry {
  id: string;
  parentId: string | null;
  /** `entry.type`. */
  type: string;
  /** `message.role` for message entries. */
  role?: string;
  /** `Date.parse(timestamp)` (NaN when unparsable, which sorts as a tie): sibling order (§16.1). */
  t: number;
  /** §16.2 row text without the label prefix, clipped to ROW_TEXT_MAX. */
  text: string;
  tokens: number;
  /** FLAG bits. */
  flags: number;
  /** label entries: the entry they label, and the label ("" = cleared, §1.6). */
  targetId?: string;
  labelValue?: string;
  /** pin entries (session-engine.md §19): true = pin `targetId`, false = unpin it. */
  pinned?: boolean;
  /** archive entries (session-engine.md §19.4): true = archive the branch from `targetId`, false = restore it. */
  archived?: boolean;
  /** compaction entries. */
  firstKeptEntryId?: string;
  tokensBefore?: number;
  /** compaction: shortSummary or first lines; branch_summary: first lines (hover cards). */
  preview?: string;
  /**
   * User messages of several lines: their first non-empty line, clipped to ROW_TEXT_MAX (the
   * row text joins the lines; the canvas's turn node names a turn by its prompt's first line).
   */
  firstLine?: string;
  /** toolResult messages: the call they answer (resolved by resolveSkeleton, not shipped). */
  toolCallId?: string;
}

function str(v: unknown): string {
  return typeof v === "string" ? v : "";
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null;
}

export function clipText(text: string, max: number = ROW_TEXT_MAX): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** A Markdown line without its heading, list or task-box marker: "## Goal" → "Goal". */
export function plainLine(line: string): string {
  return line.replace(/^\s*(#+|[-*+]( \[[ xX]\])?|\d+\.)\s+/, "").trim();
}

/** The first `lines` non-empty lines of a Markdown summary as plain lines, cut to `chars` with "…". */
export function previewLines(text: string, lines: number, chars: number): string {
  const out: string[] = [];
  for (const raw of text.split("\n")) {
    const line = plainLine(raw);
    if (line !== "") out.push(line);
    if (out.length >= lines) break;
  }
  const joined = out.join("\n");
  return joined.length > chars ? `${joined.slice(0, chars)}…` : joined;
}

/** Estimated tokens of what the entry puts in the context (session-engine.md §4); 0 for settings. */
export function entryTokens(entry: SessionEntry): number {
  try {
    switch (entry.type) {
      case "message":
        return estimateTokens(entry.message);
      case "custom_message":
        return estimateTokens({ role: "custom", customType: str(entry.customType), content: entry.content, display: true, timestamp: 0 } as AgentMessage);
      case "compaction":
      case "branch_summary":
        return estimateTextTokens(str(entry.summary));
      default:
        return 0;
    }
  } catch {
    return 0; // malformed imported content: no badge rather than a broken canvas
  }
}

/** Whether an entry is a tool step: a toolResult, or an assistant with only tool calls and thinking. */
export function isToolStepEntry(entry: SessionEntry): boolean {
  if (entry.type !== "message") return false;
  const msg: unknown = entry.message;
  if (!isRecord(msg)) return false;
  if (msg.role === "toolResult") return true;
  if (msg.role !== "assistant" || !Array.isArray(msg.content)) return false;
  let calls = 0;
  for (const block of msg.content) {
    if (!isRecord(block)) return false;
    if (block.type === "toolCall") calls++;
    else if (block.type === "text") {
      if (typeof block.text === "string" && block.text.trim() !== "") return false;
    } else if (block.type !== "thinking") return false;
  }
  return calls > 0;
}

const NO_CALLS: ReadonlyMap<string, ToolCall> = new Map();
const CHAT_TYPES = new Set(["message", "custom_message", "compaction", "branch_summary"]);

/** FLAG.notInChat of an entry (a cheap check of its own fields). */
function notInChat(entry: SessionEntry): boolean {
  return (
    (!CHAT_TYPES.has(entry.type) && !(entry.type === "custom" && typeof entry.notice === "string" && entry.notice !== "")) ||
    (entry.type === "custom_message" && entry.display === false) ||
    (entry.type === "branch_summary" && !entry.summary)
  );
}

function flagsOf(entry: SessionEntry, msg: Record<string, unknown> | undefined): number {
  let flags = 0;
  if (isHiddenAssistant(entry)) flags |= FLAG.hiddenAssistant;
  if (isToolStepEntry(entry)) flags |= FLAG.toolStep;
  if (msg?.role === "assistant") {
    if (msg.stopReason === "error" || str(msg.errorMessage) !== "") flags |= FLAG.error;
    if (isRecord(msg.usage)) flags |= FLAG.usage;
  }
  if (msg?.role === "toolResult" && msg.isError === true) flags |= FLAG.toolError;
  if ((msg?.role === "bashExecution" || msg?.role === "pythonExecution") && typeof msg.exitCode === "number" && msg.exitCode !== 0) flags |= FLAG.toolError;
  if (notInChat(entry)) flags |= FLAG.notInChat;
  return flags;
}

function messageOf(entry: SessionEntry): Record<string, unknown> | undefined {
  return entry.type === "message" && isRecord(entry.message) ? (entry.message as Record<string, unknown>) : undefined;
}

/** `SkeletonEntry.parentId` of an entry (read off the entry: cheap). */
export function parentIdOf(entry: SessionEntry): string | null {
  return typeof entry.parentId === "string" ? entry.parentId : null;
}

/** `SkeletonEntry.role` of an entry: its message's role, undefined for other entries (cheap). */
export function roleOf(entry: SessionEntry): string | undefined {
  const msg = messageOf(entry);
  return msg ? str(msg.role) : undefined;
}

/** `SkeletonEntry.toolCallId` of an entry: the call a toolResult answers (cheap). */
export function toolCallIdOf(entry: SessionEntry): string | undefined {
  const msg = messageOf(entry);
  return msg?.role === "toolResult" && typeof msg.toolCallId === "string" ? msg.toolCallId : undefined;
}

/** What the chat's page plan (session-view/chat-plan.ts) reads of a row. */
export type ChatFacts = Pick<SkeletonEntry, "id" | "type" | "flags" | "firstKeptEntryId">;

/**
 * The chat plan's facts of an entry without its row text (cheap: no content is read). `flags`
 * carries FLAG.notInChat only; `firstKeptEntryId` is skeletonFacts' (compactions only).
 */
export function chatFacts(entry: SessionEntry): ChatFacts {
  const facts: ChatFacts = { id: entry.id, type: entry.type, flags: notInChat(entry) ? FLAG.notInChat : 0 };
  if (entry.type === "compaction") facts.firstKeptEntryId = str(entry.firstKeptEntryId);
  return facts;
}

/** The skeleton of one entry, from that entry alone (see the module contract). */
export function skeletonFacts(entry: SessionEntry): SkeletonEntry {
  const msg = messageOf(entry);
  const t = Date.parse(entry.timestamp);
  const s: SkeletonEntry = {
    id: entry.id,
    parentId: parentIdOf(entry),
    type: entry.type,
    t,
    text: clipText(rowText(entry, { toolCallsById: NO_CALLS })),
    tokens: entryTokens(entry),
    flags: flagsOf(entry, msg),
  };
  const role = roleOf(entry);
  if (role !== undefined) s.role = role;
  if (msg?.role === "user") {
    // A multi-line prompt's first line, or a prompt in agent markup as a person reads it
    // (lib/session/prompt-title.ts promptLine): what the map's turn cards and Jump to show.
    const content = contentText(msg.content, ROW_CONTENT_CHARS);
    const lines = content.split("\n");
    const first = lines.length > 1 ? lines.find((l) => l.trim() !== "")?.trim() : undefined;
    const read = content.includes("<") ? promptLine(content) : undefined;
    const line = read && read !== (first ?? content.trim()) ? read : first;
    if (line) s.firstLine = clipText(line.replace(/\t/g, " "));
  }
  const toolCallId = toolCallIdOf(entry);
  if (toolCallId !== undefined) s.toolCallId = toolCallId;
  const pin = pinOf(entry);
  const archive = pin ? undefined : archiveOf(entry);
  if (entry.type === "label") {
    s.targetId = str(entry.targetId);
    s.labelValue = str(entry.label);
  } else if (pin) {
    s.targetId = pin.targetId;
    s.pinned = pin.pinned;
  } else if (archive) {
    s.targetId = archive.targetId;
    s.archived = archive.archived;
  } else if (entry.type === "compaction") {
    s.firstKeptEntryId = str(entry.firstKeptEntryId);
    s.tokensBefore = typeof entry.tokensBefore === "number" ? entry.tokensBefore : 0;
    s.preview = str(entry.shortSummary) || previewLines(str(entry.summary), 3, PREVIEW_CHARS);
  } else if (entry.type === "branch_summary") {
    s.preview = previewLines(str(entry.summary), 4, PREVIEW_CHARS);
  }
  return s;
}

export function hasFlag(s: SkeletonEntry, flag: number): boolean {
  return (s.flags & flag) !== 0;
}
