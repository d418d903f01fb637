/**
 * Building Arbor entries from single Claude Code records (no state beyond the tool-name map).
 * Pure: no network, disk or database access. The grouping is in claude-code/map.ts, the tree in claude-code/tree.ts.
 */
import type { AssistantMessage, CustomEntry, MessageEntry, SessionEntry } from "@/lib/session/types";
import { assistantContent, claudeStopReason, claudeUsage, isClaudeMachineText, userContent } from "./content";
import { epochMs, isObject, type JsonObject, rest, str } from "@/lib/formats/types";

/** Keys every conversation record has, mapped into the entry's own fields. */
const BASE_KEYS = ["type", "uuid", "parentUuid", "timestamp", "message"] as const;
/** Keys whose value usually repeats the header's; left out of `source` when equal. */
export const SESSION_KEYS = ["sessionId", "cwd", "version", "gitBranch", "userType", "isSidechain"] as const;

/** Where an entry hangs: under a source uuid, after the current tail, or after the previous entry of its record. */
export type ParentRef = { kind: "uuid"; uuid: string | null } | { kind: "inline" } | { kind: "previous" };

export interface Piece {
  entry: SessionEntry;
  parent: ParentRef;
  line: number;
  /** Source uuids that should resolve to this entry (set once it is placed). */
  aliases?: string[];
}

/** The record's keys Arbor does not model, minus session keys equal to the header's. */
export function sourceOf(record: JsonObject, session: JsonObject, extraTaken: readonly string[] = []): JsonObject {
  const out = rest(record, [...BASE_KEYS, ...extraTaken]);
  for (const k of SESSION_KEYS) if (k in out && out[k] === session[k]) delete out[k];
  if (out.isSidechain === false) delete out.isSidechain;
  const message = record.message;
  if (isObject(message)) {
    const m = rest(message, ["role", "content", "usage", "model", "stop_reason"]);
    if (Object.keys(m).length > 0) out.message = m;
  }
  return out;
}

function parentRef(record: JsonObject): ParentRef {
  if (typeof record.uuid !== "string") return { kind: "inline" };
  return { kind: "uuid", uuid: str(record.parentUuid) ?? null };
}

export function customPiece(record: JsonObject, line: number, fallbackTs: string): Piece {
  const type = str(record.type) ?? "unknown";
  const subtype = type === "system" ? str(record.subtype) : undefined;
  const customType = `claude-code/${type}${subtype ? `/${subtype}` : ""}${record.isMeta === true ? "/meta" : ""}`;
  const id = str(record.uuid) ?? `L${line}`;
  const entry: CustomEntry = {
    type: "custom",
    id,
    parentId: null,
    timestamp: str(record.timestamp) ?? fallbackTs,
    customType,
    data: rest(record, ["uuid", "parentUuid", "timestamp"]),
  };
  const notice = noticeOf(record);
  if (notice) entry.notice = notice;
  return { entry: entry as SessionEntry, parent: parentRef(record), line };
}

/** "5 min 38 s" */
function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

/**
 * The line the chat shows for a record Claude Code showed its user (custom entries, never sent to
 * a model): the "while you were away" recap, how long a turn took, a hook's message to the user.
 */
function noticeOf(record: JsonObject): string | undefined {
  if (record.type === "system" && record.subtype === "away_summary") return str(record.content);
  if (record.type === "system" && record.subtype === "turn_duration" && typeof record.durationMs === "number") return `Turn took ${duration(record.durationMs)}`;
  const attachment = record.type === "attachment" && isObject(record.attachment) ? record.attachment : undefined;
  if (attachment?.type === "hook_system_message") {
    const text = str(attachment.content)?.trim();
    return text ? `${str(attachment.hookName) ?? "hook"}: ${text}` : undefined;
  }
  return undefined;
}

/** A Piece whose entry is an assistant message; `message` and `source` are that entry's own objects. */
export interface AssistantPiece extends Piece {
  message: AssistantMessage;
  source: JsonObject;
}

/** Claude Code's name for the model of messages it writes itself ("No response requested."). */
export const SYNTHETIC_MODEL = "<synthetic>";

/**
 * An assistant record. One Claude Code wrote itself (model `<synthetic>`) is given the last real
 * model (`lastModel`), so the session's model stays one a turn can use; `source.model` keeps
 * `<synthetic>`. An API error Claude Code showed as a message (`isApiErrorMessage`) keeps its text
 * as `errorMessage` only: with no content it is never sent to a model.
 */
export function assistantPiece(record: JsonObject, line: number, session: JsonObject, fallbackTs: string, lastModel?: string): AssistantPiece {
  const message = record.message as JsonObject;
  const { parts, unmodelled } = assistantContent(message.content);
  const ts = str(record.timestamp) ?? fallbackTs;
  const model = str(message.model);
  const assistant: AssistantMessage = {
    role: "assistant",
    content: parts,
    api: "anthropic-messages",
    provider: "anthropic",
    model: model === SYNTHETIC_MODEL ? (lastModel ?? "unknown") : (model ?? "unknown"),
    usage: claudeUsage(message.usage),
    stopReason: claudeStopReason(message.stop_reason, parts.some((p) => p.type === "toolCall")),
    timestamp: epochMs(ts, 0),
  };
  if (record.isApiErrorMessage === true) {
    assistant.stopReason = "error";
    assistant.errorMessage = parts.map((p) => (p.type === "text" ? p.text : "")).join("") || "API error";
    assistant.content = [];
  }
  const source = sourceOf(record, session);
  if (model === SYNTHETIC_MODEL) source.model = model;
  if (unmodelled.length > 0) source.unmodelledContent = unmodelled;
  const entry: MessageEntry & { source: JsonObject } = { type: "message", id: record.uuid as string, parentId: null, timestamp: ts, message: assistant, source };
  return { entry: entry as unknown as SessionEntry, parent: parentRef(record), line, message: assistant, source };
}

function sameTokens(a: AssistantMessage["usage"], b: AssistantMessage["usage"]): boolean {
  return a.input === b.input && a.output === b.output && a.cacheRead === b.cacheRead && a.cacheWrite === b.cacheWrite;
}

/** Adds a later record of the same model response (same `message.id`) to `piece`. */
export function mergeAssistant(piece: AssistantPiece, record: JsonObject, session: JsonObject): void {
  const message = record.message as JsonObject;
  const { parts, unmodelled } = assistantContent(message.content);
  const target = piece.message;
  target.content.push(...parts);
  const usage = claudeUsage(message.usage);
  if (usage.totalTokens) {
    // The ledger counts a response's first record, as ccusage does (lib/usage/rows.ts).
    if (piece.source.firstUsage === undefined && !sameTokens(usage, target.usage)) piece.source.firstUsage = { ...target.usage };
    target.usage = usage;
  }
  target.stopReason = claudeStopReason(message.stop_reason, target.content.some((p) => p.type === "toolCall"));
  const extra = sourceOf(record, session);
  extra.uuid = record.uuid;
  if (typeof record.timestamp === "string") extra.timestamp = record.timestamp;
  if (unmodelled.length > 0) extra.unmodelledContent = unmodelled;
  const merged = (piece.source.mergedRecords as JsonObject[] | undefined) ?? [];
  merged.push(extra);
  piece.source.mergedRecords = merged;
}

/**
 * A user record: its tool results (one toolResult message each, in block order), then its
 * text / images as one user message. The record's uuid names the first entry and resolves to
 * the last, so the next record hangs after all of them.
 */
export function userPieces(
  record: JsonObject,
  line: number,
  session: JsonObject,
  calls: { toolNames: ReadonlyMap<string, string>; links: ReadonlyMap<string, string> },
  fallbackTs: string,
): Piece[] {
  const { toolNames, links } = calls;
  const message = record.message as JsonObject;
  const { parts, toolResults, unmodelled } = userContent(message.content);
  const ts = str(record.timestamp) ?? fallbackTs;
  const time = epochMs(ts, 0);
  const uuid = record.uuid as string;
  const source = sourceOf(record, session, toolResults.length === 1 ? ["toolUseResult"] : []);
  if (unmodelled.length > 0) source.unmodelledContent = unmodelled;
  const pieces: Piece[] = [];
  toolResults.forEach((r, i) => {
    const entry: SessionEntry = {
      type: "message",
      id: i === 0 ? uuid : `${uuid}#${i}`,
      parentId: null,
      timestamp: ts,
      message: {
        role: "toolResult",
        toolCallId: r.toolUseId,
        toolName: toolNames.get(r.toolUseId) ?? "unknown",
        content: r.content,
        isError: r.isError,
        ...(toolResults.length === 1 && record.toolUseResult !== undefined ? { details: record.toolUseResult } : {}),
        ...subagentLink(session, r.toolUseId, links, toolResults.length === 1 ? record.toolUseResult : undefined),
        timestamp: time,
      },
      ...(r.extra ? { block: r.extra } : {}),
    } as SessionEntry;
    pieces.push({ entry, parent: i === 0 ? parentRef(record) : { kind: "previous" }, line });
  });
  if (parts.length > 0 || pieces.length === 0) {
    const entry = {
      type: "message",
      id: pieces.length === 0 ? uuid : `${uuid}#${pieces.length}`,
      parentId: null,
      timestamp: ts,
      message: { role: "user", content: parts, ...(isClaudeMachineText(parts) ? { synthetic: true } : {}), timestamp: time },
    } as SessionEntry;
    pieces.push({ entry, parent: pieces.length === 0 ? parentRef(record) : { kind: "previous" }, line });
  }
  if (Object.keys(source).length > 0) (pieces[0]!.entry as SessionEntry & { source?: JsonObject }).source = source;
  pieces.at(-1)!.aliases = [uuid];
  return pieces;
}

/**
 * The session id a subagent file (`<sessionId>/subagents/agent-<agentId>.jsonl`) is imported
 * under: its records carry the parent's `sessionId`, so the id is derived from both.
 */
export function subagentSessionId(sessionId: string, agentId: string): string {
  return `${sessionId}.agent-${agentId}`;
}

export const NO_LINKS: ReadonlyMap<string, string> = new Map();

/**
 * The link from a Task tool result to the subagent that ran it: the inline sidechain run its
 * call started (`links`), or the subagent file the result names (`toolUseResult.agentId`).
 */
function subagentLink(session: JsonObject, toolUseId: string, links: ReadonlyMap<string, string>, toolUseResult: unknown): { subagentSessionId?: string } {
  const inline = links.get(toolUseId);
  if (inline) return { subagentSessionId: inline };
  const agentId = isObject(toolUseResult) ? str(toolUseResult.agentId) : undefined;
  const sessionId = str(session.sessionId);
  return agentId && sessionId ? { subagentSessionId: subagentSessionId(sessionId, agentId) } : {};
}

/** What a title record names the session: `custom-title` (set by the user) or `ai-title` (Claude Code's). */
export function titleOf(record: JsonObject): { kind: "custom" | "ai"; name: string } | undefined {
  const name = record.type === "custom-title" ? str(record.customTitle) : record.type === "ai-title" ? str(record.aiTitle) : undefined;
  if (name === undefined || name.trim() === "") return undefined;
  return { kind: record.type === "custom-title" ? "custom" : "ai", name };
}

/** A title record → a `session_info` entry naming the session (pi's own way, session-engine.md §1.2); the record kept as `source`. */
export function titlePiece(record: JsonObject, name: string, line: number, fallbackTs: string): Piece {
  const entry = { type: "session_info", id: str(record.uuid) ?? `L${line}`, parentId: null, timestamp: str(record.timestamp) ?? fallbackTs, name, source: record };
  return { entry: entry as SessionEntry, parent: { kind: "inline" }, line };
}

/** "529 overloaded_error: Overloaded" from an api_error record's `error` (a JSON string or an object). */
function apiErrorText(error: unknown): string {
  let parsed: unknown = error;
  if (typeof error === "string") {
    try {
      parsed = JSON.parse(error);
    } catch {
      return error;
    }
  }
  if (!isObject(parsed)) return "API error";
  const value: JsonObject = parsed;
  const inner = isObject(value.error) ? (isObject(value.error.error) ? value.error.error : value.error) : undefined;
  const status = typeof value.status === "number" ? `${value.status} ` : "";
  const kind = str(inner?.type);
  const message = str(inner?.message) ?? str(value.message);
  return `API error ${status}${kind ?? ""}${message ? `: ${message}` : ""}`.replace(/\s+:/, ":").trim();
}

/**
 * A `system` / `api_error` record (a failed request Claude Code retried) → an assistant message
 * with stopReason "error", no content and the error as `errorMessage`: shown as a failed model
 * call, as Claude Code shows it; with no content it is never sent to a model (an empty
 * assistant is dropped from a request). The record is kept as `source`.
 */
export function apiErrorPiece(record: JsonObject, line: number, session: JsonObject, model: string | undefined, fallbackTs: string): Piece {
  const ts = str(record.timestamp) ?? fallbackTs;
  const attempt = typeof record.retryAttempt === "number" ? record.retryAttempt : undefined;
  const max = typeof record.maxRetries === "number" ? ` of ${record.maxRetries}` : "";
  const wait = typeof record.retryInMs === "number" ? ` in ${(record.retryInMs / 1000).toFixed(1)} s` : "";
  const retry = attempt !== undefined ? ` (retry ${attempt}${max}${wait})` : "";
  const message: AssistantMessage = {
    role: "assistant",
    content: [],
    api: "anthropic-messages",
    provider: "anthropic",
    model: model ?? "unknown",
    usage: claudeUsage(undefined),
    stopReason: "error",
    errorMessage: `${apiErrorText(record.error)}${retry}`,
    timestamp: epochMs(ts, 0),
  };
  const entry = { type: "message", id: record.uuid as string, parentId: null, timestamp: ts, message, source: { ...sourceOf(record, session), type: "system" } };
  return { entry: entry as unknown as SessionEntry, parent: parentRef(record), line };
}
