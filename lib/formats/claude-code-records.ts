/**
 * Building Arbor entries from single Claude Code records (no state beyond the tool-name map).
 * Pure: no network, disk or database access. The tree and grouping logic is in claude-code-map.ts.
 */
import type { AssistantMessage, CustomEntry, MessageEntry, SessionEntry } from "@/lib/session/types";
import { assistantContent, claudeStopReason, claudeUsage, userContent } from "./claude-code-content";
import { epochMs, isObject, type JsonObject, rest, str } from "./types";

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
  return { entry: entry as SessionEntry, parent: parentRef(record), line };
}

/** A Piece whose entry is an assistant message; `message` and `source` are that entry's own objects. */
export interface AssistantPiece extends Piece {
  message: AssistantMessage;
  source: JsonObject;
}

export function assistantPiece(record: JsonObject, line: number, session: JsonObject, fallbackTs: string): AssistantPiece {
  const message = record.message as JsonObject;
  const { parts, unmodelled } = assistantContent(message.content);
  const ts = str(record.timestamp) ?? fallbackTs;
  const assistant: AssistantMessage = {
    role: "assistant",
    content: parts,
    api: "anthropic-messages",
    provider: "anthropic",
    model: str(message.model) ?? "unknown",
    usage: claudeUsage(message.usage),
    stopReason: claudeStopReason(message.stop_reason, parts.some((p) => p.type === "toolCall")),
    timestamp: epochMs(ts, 0),
  };
  if (record.isApiErrorMessage === true) {
    assistant.stopReason = "error";
    assistant.errorMessage = parts.map((p) => (p.type === "text" ? p.text : "")).join("") || "API error";
  }
  const source = sourceOf(record, session);
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
export function userPieces(record: JsonObject, line: number, session: JsonObject, toolNames: ReadonlyMap<string, string>, fallbackTs: string): Piece[] {
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
        ...subagentLink(session, toolResults.length === 1 ? record.toolUseResult : undefined),
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
      message: { role: "user", content: parts, timestamp: time },
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

/** A Task tool result names the subagent that ran it (`toolUseResult.agentId`): the link to its session. */
function subagentLink(session: JsonObject, toolUseResult: unknown): { subagentSessionId?: string } {
  const agentId = isObject(toolUseResult) ? str(toolUseResult.agentId) : undefined;
  const sessionId = str(session.sessionId);
  return agentId && sessionId ? { subagentSessionId: subagentSessionId(sessionId, agentId) } : {};
}
