/**
 * Gemini CLI chat recordings → Arbor entries, a whole conversation at once (MappedDocument).
 * The recording is `~/.gemini/tmp/<project>/chats/session-*.json`: ONE JSON document
 * `{ sessionId, projectHash, startTime, lastUpdated, messages[], summary? }`, rewritten whole as
 * the session grows; Gemini CLI 0.39+ writes `session-*.jsonl` records instead, folded into the
 * same shape first (gemini-records.ts).
 * Pure: no network, disk or database access.
 *
 * Mapping (docs/formats.md "Gemini CLI"):
 * - The document → the header: `id` = `sessionId`, `timestamp` = `startTime`, `cwd` = the first
 *   of `directories` (Gemini records only a hash of the project path), `title` = `summary`;
 *   everything else under `gemini`; `sourceFormat: "gemini"`.
 * - A conversation is linear: every entry's parent is the previous entry. Entry ids are the
 *   message ids (a repeated id gets `~<index>`), tool results `<message id>#<k>`: stable across
 *   imports, so a sync of the grown file recognises what it stored before.
 * - `user` → a user message. `gemini` → ONE assistant message (thoughts as thinking blocks, the
 *   text, each of `toolCalls` as a tool call; `model` recorded; `tokens` → usage), then one
 *   tool result per call, in call order (gemini-parts.ts: a call without a result gets an
 *   explicit one). `info` / `error` / `warning` and unknown types → custom entries
 *   `gemini/<type>` holding the message: shown with the "all" filter, never sent to a model.
 * - Fields Arbor does not model stay on the entry under `source` (tool call fields in the
 *   result's `details`), so nothing is lost.
 * A message that is not an object, or has no `type`, throws FormatError naming `messages[i]`.
 */
import type { AssistantMessage, SessionEntry, SessionHeader } from "@/lib/session/types";
import { contentText, promptContent, thoughtPart, toolResultOf, usageOf } from "./gemini-parts";
import { epochMs, FormatError, isObject, type JsonObject, type MappedDocument, rest, str } from "./types";

/** The provider Arbor records for Gemini CLI's models (`google/<model>`). */
export const GEMINI_PROVIDER = "google";

/** True when `value` has the top-level shape of a Gemini CLI chat recording. */
export function isGeminiConversation(value: unknown): value is JsonObject {
  return isObject(value) && typeof value.sessionId === "string" && typeof value.projectHash === "string" && Array.isArray(value.messages);
}

function where(index: number, field?: string): string {
  return `messages[${index}]${field ? `.${field}` : ""}`;
}

export function mapGeminiConversation(doc: JsonObject): MappedDocument {
  const messages = Array.isArray(doc.messages) ? doc.messages : [];
  const first = messages.find(isObject);
  const start = str(doc.startTime) ?? str(first?.timestamp) ?? new Date(0).toISOString();
  const directories = Array.isArray(doc.directories) ? doc.directories : [];
  const summary = str(doc.summary)?.trim();
  const header: SessionHeader = {
    type: "session",
    version: 3,
    id: str(doc.sessionId) ?? "gemini-session",
    timestamp: start,
    cwd: typeof directories[0] === "string" ? directories[0] : "",
    ...(summary ? { title: summary } : {}),
    sourceFormat: "gemini",
    gemini: rest(doc, ["sessionId", "startTime", "messages"]),
  };

  const entries: SessionEntry[] = [];
  const used = new Set<string>();
  let parentId: string | null = null;
  let timestamp = start;
  let model: string | undefined;
  const place = (entry: SessionEntry) => {
    entry.parentId = parentId;
    entries.push(entry);
    parentId = entry.id;
  };

  messages.forEach((m, i) => {
    if (!isObject(m)) throw new FormatError(0, `${where(i)}: a Gemini CLI message is not an object`);
    const type = str(m.type);
    if (!type) throw new FormatError(0, `${where(i)}: Gemini CLI message has no type`, "type");
    timestamp = str(m.timestamp) ?? timestamp;
    let id = str(m.id) || `gemini-${i}`;
    if (used.has(id)) id = `${id}~${i}`;
    used.add(id);
    const time = epochMs(timestamp, 0);
    if (type === "user") {
      const extra = rest(m, ["id", "timestamp", "type", "content"]);
      place({
        type: "message",
        id,
        parentId: null,
        timestamp,
        message: { role: "user", content: promptContent(m.content), timestamp: time },
        ...(Object.keys(extra).length > 0 ? { source: extra } : {}),
      } as SessionEntry);
      return;
    }
    if (type !== "gemini") {
      place({ type: "custom", id, parentId: null, timestamp, customType: `gemini/${type}`, data: rest(m, ["id", "timestamp"]) } as SessionEntry);
      return;
    }
    model = str(m.model) ?? model;
    const calls = Array.isArray(m.toolCalls) ? m.toolCalls : [];
    const message: AssistantMessage = {
      role: "assistant",
      content: [],
      provider: GEMINI_PROVIDER,
      model: model ?? "unknown",
      usage: usageOf(m.tokens),
      stopReason: calls.length > 0 ? "toolUse" : "stop",
      timestamp: time,
    };
    if (Array.isArray(m.thoughts)) for (const t of m.thoughts) message.content.push(thoughtPart(t));
    const text = contentText(m.content);
    if (text !== "") message.content.push({ type: "text", text });
    const callIds: { id: string; name: string; call: JsonObject }[] = [];
    calls.forEach((c, k) => {
      if (!isObject(c)) throw new FormatError(0, `${where(i, `toolCalls[${k}]`)}: a tool call is not an object`);
      const callId = str(c.id) || `${id}-call-${k + 1}`;
      const name = str(c.name) ?? "unknown";
      message.content.push({ type: "toolCall", id: callId, name, arguments: isObject(c.args) ? c.args : {} });
      callIds.push({ id: callId, name, call: c });
    });
    const source = rest(m, ["id", "timestamp", "type", "content", "toolCalls", "model"]);
    place({ type: "message", id, parentId: null, timestamp, message, source } as SessionEntry);
    callIds.forEach(({ id: callId, name, call }, k) => {
      const result = toolResultOf(call);
      place({
        type: "message",
        id: `${id}#${k + 1}`,
        parentId: null,
        timestamp: str(call.timestamp) ?? timestamp,
        message: {
          role: "toolResult",
          toolCallId: callId,
          toolName: name,
          content: result.content,
          isError: result.isError,
          details: rest(call, ["id", "name", "args", "result"]),
          timestamp: epochMs(str(call.timestamp), time),
        },
      } as SessionEntry);
    });
  });
  return { format: "gemini", header, entries, records: messages.length };
}
