/**
 * opencode sessions → Arbor entries, a whole session at once (MappedDocument). The input is what
 * `opencode export <sessionID>` prints: `{ info, messages: [{ info, parts }] }`; a session kept in
 * opencode's storage folder is assembled into the same shape first (lib/sync/opencode-storage.ts).
 * Pure: no network, disk or database access.
 *
 * Mapping (docs/formats.md "opencode"):
 * - `info` → the header: `id`, `timestamp` = `time.created`, `cwd` = `directory`, `title`
 *   (unless it is opencode's "New session - …" placeholder), `parentSession` = `parentID` (a
 *   child session: a `task` subagent's); the rest under `opencode`; `sourceFormat: "opencode"`.
 * - A session is linear: every entry's parent is the previous entry. Ids are opencode's own
 *   (message ids, tool parts' ids), `<message id>#<k>` for the k-th later step of one message.
 * - A user message → a user message (text, files; all-synthetic text → `synthetic`).
 * - An assistant message → per step (`step-start` … `step-finish`) ONE assistant message
 *   (reasoning → thinking, text, tool parts → tool calls; `modelID` / `providerID` recorded;
 *   the step's tokens and cost → usage, else the message's), then one tool result per tool part
 *   (opencode-parts.ts). `error` → stop reason `error` (`aborted` for an abort) with its message.
 * - A user message with a `compaction` part and the `summary` assistant message answering it →
 *   ONE compaction entry: summary = the answer's text, `tokensBefore` = the context of the last
 *   response before it, `firstKeptEntryId` = the entry of `tail_start_id` when opencode kept a
 *   tail, else the next entry (nothing before it is kept, as in opencode); both messages in
 *   `details`.
 * - `patch`, `retry`, `subtask`, `agent` in an assistant message, and unknown part types →
 *   custom entries `opencode/<type>` after the message (shown with the "all" filter, never sent
 *   to a model); `step-start`, `snapshot`, a user's `agent` part stay in `source`.
 * A message without an `info.role` throws FormatError naming `messages[i]`.
 */
import type { AssistantMessage, CompactionEntry, SessionEntry, SessionHeader, StopReason, Usage } from "@/lib/session/types";
import { contextTokens, filePart, type Part, stopReasonOf, toolOutcome, usageOf } from "./opencode-parts";
import { FormatError, isObject, type JsonObject, type MappedDocument, rest, str } from "./types";

/** True when `value` has the top-level shape of an opencode export. */
export function isOpencodeExport(value: unknown): value is JsonObject {
  if (!isObject(value) || !isObject(value.info) || !Array.isArray(value.messages)) return false;
  const info = value.info;
  return typeof info.id === "string" && (typeof info.version === "string" || isObject(info.time) || typeof info.title === "string");
}

const PLACEHOLDER_TITLE = /^(New session|Child session) - \d{4}-\d\d-\d\dT/;

function iso(ms: unknown, fallback: string): string {
  return typeof ms === "number" && Number.isFinite(ms) ? new Date(ms).toISOString() : fallback;
}

function timeOf(info: JsonObject, key: "created" | "completed"): unknown {
  return isObject(info.time) ? info.time[key] : undefined;
}

/** A part without its content fields (kept in `source`; the content went into the message). */
function partSource(p: JsonObject): JsonObject {
  if (p.type === "text" || p.type === "reasoning") return rest(p, ["text", "sessionID", "messageID"]);
  if (p.type === "tool") return rest(p, ["state", "sessionID", "messageID"]);
  return rest(p, ["sessionID", "messageID"]);
}

function stepsOf(parts: JsonObject[]): JsonObject[][] {
  const steps: JsonObject[][] = [];
  let current: JsonObject[] = [];
  for (const p of parts) {
    if (p.type === "step-start" && current.some((x) => x.type !== "step-start")) {
      steps.push(current);
      current = [];
    }
    current.push(p);
  }
  steps.push(current);
  return steps;
}

function textOf(parts: JsonObject[]): string {
  return parts
    .filter((p) => p.type === "text" && typeof p.text === "string")
    .map((p) => p.text as string)
    .join("\n\n");
}

export function mapOpencodeExport(doc: JsonObject): MappedDocument {
  const info = isObject(doc.info) ? doc.info : {};
  const created = iso(timeOf(info, "created"), new Date(0).toISOString());
  const title = str(info.title)?.trim();
  const parent = str(info.parentID);
  const header: SessionHeader = {
    type: "session",
    version: 3,
    id: str(info.id) ?? "opencode-session",
    timestamp: created,
    cwd: str(info.directory) ?? "",
    ...(title && !PLACEHOLDER_TITLE.test(title) ? { title } : {}),
    ...(parent ? { parentSession: parent } : {}),
    sourceFormat: "opencode",
    opencode: rest(info, ["id", "directory", "parentID"]),
  };
  const messages = Array.isArray(doc.messages) ? doc.messages : [];
  const m = new OpencodeMapper(created);
  for (const [i, msg] of messages.entries()) m.message(msg, i);
  m.end();
  return { format: "opencode", header, entries: m.entries, records: messages.length };
}

class OpencodeMapper {
  readonly entries: SessionEntry[] = [];
  private parentId: string | null = null;
  private readonly used = new Set<string>();
  /** The first entry of each opencode message (a compaction's kept tail starts at one). */
  private readonly entryOfMessage = new Map<string, string>();
  private waitingCompaction: CompactionEntry | null = null;
  private request: { msg: JsonObject; index: number } | null = null;
  private lastContext = 0;
  private provider: string | undefined;
  private model: string | undefined;

  constructor(private timestamp: string) {}

  message(msg: unknown, i: number): void {
    if (!isObject(msg) || !isObject(msg.info) || typeof msg.info.role !== "string") {
      throw new FormatError(0, `messages[${i}]: an opencode message has no info.role`, "info.role");
    }
    const info = msg.info;
    const parts = Array.isArray(msg.parts) ? msg.parts.filter(isObject) : [];
    this.timestamp = iso(timeOf(info, "created"), this.timestamp);
    const messageId = str(info.id) ?? `message-${i}`;
    if (info.role === "user") {
      if (this.request) this.dropRequest();
      if (parts.some((p) => p.type === "compaction")) this.request = { msg, index: i };
      else this.user(messageId, info, parts);
    } else if (info.role === "assistant") {
      if (this.request || info.summary === true) this.compaction(messageId, msg, parts);
      else this.assistant(messageId, info, parts);
    } else {
      this.place({ type: "custom", id: messageId, parentId: null, timestamp: this.timestamp, customType: `opencode/message/${info.role}`, data: msg } as SessionEntry, messageId);
    }
  }

  end(): void {
    if (this.request) this.dropRequest();
    if (this.waitingCompaction) this.waitingCompaction.firstKeptEntryId = this.waitingCompaction.id;
  }

  private uniqueId(id: string): string {
    let out = id;
    for (let n = 2; this.used.has(out); n++) out = `${id}~${n}`;
    this.used.add(out);
    return out;
  }

  private place(entry: SessionEntry, messageId?: string): void {
    entry.id = this.uniqueId(entry.id);
    entry.parentId = this.parentId;
    this.parentId = entry.id;
    this.entries.push(entry);
    if (messageId && !this.entryOfMessage.has(messageId)) this.entryOfMessage.set(messageId, entry.id);
    if (this.waitingCompaction && entry !== (this.waitingCompaction as SessionEntry)) {
      this.waitingCompaction.firstKeptEntryId = entry.id;
      this.waitingCompaction = null;
    }
  }

  private custom(p: JsonObject, fallbackId: string, messageId: string): void {
    const type = str(p.type) ?? "unknown";
    this.place({ type: "custom", id: str(p.id) ?? fallbackId, parentId: null, timestamp: this.timestamp, customType: `opencode/${type}`, data: rest(p, ["sessionID", "messageID"]) } as SessionEntry, messageId);
  }

  private user(messageId: string, info: JsonObject, parts: JsonObject[]): void {
    const content: Part[] = [];
    const later: JsonObject[] = [];
    let texts = 0;
    let synthetic = 0;
    for (const p of parts) {
      if (p.type === "text" && typeof p.text === "string") {
        if (p.ignored === true) continue;
        texts += 1;
        if (p.synthetic === true) synthetic += 1;
        content.push({ type: "text", text: p.text });
      } else if (p.type === "file") content.push(filePart(p));
      else if (p.type !== "agent") later.push(p);
    }
    this.place(
      {
        type: "message",
        id: messageId,
        parentId: null,
        timestamp: this.timestamp,
        message: { role: "user", content, ...(texts > 0 && synthetic === texts ? { synthetic: true } : {}), timestamp: Date.parse(this.timestamp) },
        source: { info: rest(info, ["id", "role", "sessionID"]), parts: parts.map(partSource) },
      } as SessionEntry,
      messageId,
    );
    for (const [k, p] of later.entries()) this.custom(p, `${messageId}#p${k + 1}`, messageId);
  }

  private assistant(messageId: string, info: JsonObject, parts: JsonObject[]): void {
    this.provider = str(info.providerID) ?? (isObject(info.model) ? str(info.model.providerID) : undefined) ?? this.provider;
    this.model = str(info.modelID) ?? (isObject(info.model) ? str(info.model.modelID) : undefined) ?? this.model;
    const steps = stepsOf(parts);
    steps.forEach((step, k) => {
      const last = k === steps.length - 1;
      const finish = step.find((p) => p.type === "step-finish");
      const usage: Usage = finish ? usageOf(finish.tokens, finish.cost) : steps.length === 1 ? usageOf(info.tokens, info.cost) : usageOf(undefined, undefined);
      const message: AssistantMessage = {
        role: "assistant",
        content: [],
        provider: this.provider ?? "unknown",
        model: this.model ?? "unknown",
        usage,
        stopReason: "stop",
        timestamp: Date.parse(this.timestamp),
      };
      const tools: JsonObject[] = [];
      const later: JsonObject[] = [];
      for (const p of step) {
        if (p.type === "text" && typeof p.text === "string") message.content.push({ type: "text", text: p.text });
        else if (p.type === "reasoning" && typeof p.text === "string") message.content.push({ type: "thinking", thinking: p.text });
        else if (p.type === "tool") {
          const state = isObject(p.state) ? p.state : {};
          message.content.push({ type: "toolCall", id: str(p.callID) ?? str(p.id) ?? `${messageId}-call`, name: str(p.tool) ?? "unknown", arguments: isObject(state.input) ? state.input : {} });
          tools.push(p);
        } else if (p.type === "file") {
          const f = filePart(p);
          message.content.push(f.type === "text" ? f : { type: "text", text: `[image: ${str(p.filename) ?? "attachment"}]` });
        } else if (p.type !== "step-start" && p.type !== "step-finish" && p.type !== "snapshot") later.push(p);
      }
      message.stopReason = stopReasonOf(finish?.reason ?? (last ? info.finish : undefined), tools.length > 0);
      if (last && isObject(info.error)) this.markError(message, info.error);
      this.lastContext = contextTokens(usage) || this.lastContext;
      const id = k === 0 ? messageId : `${messageId}#${k}`;
      const source = { ...(k === 0 ? { info: rest(info, ["id", "role", "sessionID"]) } : {}), parts: step.map(partSource) };
      this.place({ type: "message", id, parentId: null, timestamp: this.timestamp, message, source } as SessionEntry, messageId);
      for (const [j, p] of tools.entries()) this.toolResult(p, `${id}#t${j + 1}`);
      for (const [j, p] of later.entries()) this.custom(p, `${id}#p${j + 1}`, messageId);
    });
  }

  private markError(message: AssistantMessage, error: JsonObject): void {
    const data = isObject(error.data) ? error.data : {};
    const aborted: StopReason = error.name === "MessageAbortedError" ? "aborted" : "error";
    message.stopReason = aborted;
    message.errorMessage = str(data.message) ?? str(error.name) ?? "error";
  }

  private toolResult(p: JsonObject, fallbackId: string): void {
    const state = isObject(p.state) ? p.state : {};
    const outcome = toolOutcome(p);
    const end = isObject(state.time) ? state.time.end : undefined;
    const timestamp = iso(end, this.timestamp);
    this.place({
      type: "message",
      id: str(p.id) ?? fallbackId,
      parentId: null,
      timestamp,
      message: {
        role: "toolResult",
        toolCallId: str(p.callID) ?? str(p.id) ?? fallbackId,
        toolName: str(p.tool) ?? "unknown",
        content: outcome.content,
        isError: outcome.isError,
        details: rest(state, ["input", "output", "error", "attachments"]),
        ...(outcome.subagentSessionId ? { subagentSessionId: outcome.subagentSessionId } : {}),
        timestamp: Date.parse(timestamp),
      },
    } as SessionEntry);
  }

  private compaction(messageId: string, msg: JsonObject, parts: JsonObject[]): void {
    const request = this.request;
    this.request = null;
    const marker = request && Array.isArray(request.msg.parts) ? request.msg.parts.find((p) => isObject(p) && p.type === "compaction") : undefined;
    const tail = isObject(marker) ? str(marker.tail_start_id) : undefined;
    const kept = tail ? this.entryOfMessage.get(tail) : undefined;
    const requestId = request && isObject(request.msg.info) ? str(request.msg.info.id) : undefined;
    const entry = {
      type: "compaction",
      id: requestId ?? messageId,
      parentId: null,
      timestamp: this.timestamp,
      summary: textOf(parts),
      firstKeptEntryId: kept ?? "",
      tokensBefore: this.lastContext,
      details: { opencode: { ...(request ? { request: request.msg } : {}), summary: msg } },
    } as CompactionEntry;
    this.place(entry as SessionEntry, requestId ?? messageId);
    if (requestId) this.entryOfMessage.set(messageId, entry.id);
    if (!kept) this.waitingCompaction = entry;
  }

  /** A compaction request no summary answered (opencode stopped): kept as a custom entry. */
  private dropRequest(): void {
    const { msg, index } = this.request!;
    this.request = null;
    const info = msg.info as JsonObject;
    const id = str(info.id) ?? `message-${index}`;
    const timestamp = iso(timeOf(info, "created"), this.timestamp);
    this.place({ type: "custom", id, parentId: null, timestamp, customType: "opencode/compaction-request", data: msg } as SessionEntry, id);
  }
}
