/**
 * Codex CLI rollouts (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`, lines
 * `{ timestamp, type, payload }`) → Arbor entries, one record at a time (FormatMapper, types.ts).
 * The chain they form (header, ids, parents, the compaction's first kept entry) is codex/chain.ts,
 * which this class extends. Pure: no network, disk or database access.
 *
 * Mapping (docs/formats.md):
 * - `session_meta` → the header: `id`, `timestamp`, `cwd`, `forked_from_id` → `parentSession`;
 *   everything else (cli version, git, originator, instructions, …) under `codex`. A later
 *   `session_meta` is kept as a custom entry.
 * - A rollout is linear: every entry's parent is the previous entry. Ids are `L<line>` (and
 *   `L<line>.<k>` when one line gives several entries), stable across imports.
 * - `turn_context` → `model_change` (`<model_provider>/<model>`) and `thinking_level_change`
 *   (`effort`) when they change; an unchanged one is a custom entry.
 * - `response_item`: user / developer `message` → a user message (Codex's own context wrappers
 *   and developer messages are marked `synthetic`); the assistant items of one model response
 *   (`reasoning`, assistant `message`, `function_call`, `custom_tool_call`, `local_shell_call`)
 *   → ONE assistant message; `*_output` → tool results. A response is open until its
 *   `token_count`, a user message, or an assistant item after a tool output; records met
 *   meanwhile are placed after it.
 * - `event_msg` `token_count` → the open response's usage; other events → custom entries.
 * - `compacted` → a compaction entry: summary = `message`, `tokensBefore` = the last reported
 *   context tokens, `firstKeptEntryId` = the next entry, and `replacement_history` (what the
 *   model saw next) in `preserveData.codexReplacementHistory`.
 */
import type { AssistantMessage, CompactionEntry, SessionEntry } from "@/lib/session/types";
import { CodexChain } from "./chain";
import {
  isCodexContextText,
  isOutputItem,
  mcpResultOf,
  messageParts,
  reasoningPart,
  textOf,
  toolCallOf,
  toolOutputOf,
  toolSearchOutputOf,
  usageOfTokenCount,
} from "./items";
import { epochMs, FormatError, type FormatMapper, type FormatNote, isObject, type JsonObject, type MappedItem, rest, str } from "@/lib/formats/types";
import { modelRef } from "@/lib/session/model-ref";

/** Events that end a turn: a call of the turn still without an output will get none. */
const TURN_END_EVENTS = new Set(["task_complete", "turn_aborted"]);

const HEADER_WAIT_RECORDS = 200;

interface Group {
  entry: SessionEntry & { message: AssistantMessage; source: JsonObject };
  line: number;
  sawOutput: boolean;
  held: SessionEntry[];
}

export function createCodexMapper(): FormatMapper {
  return new CodexMapper();
}

class CodexMapper extends CodexChain implements FormatMapper {
  readonly format = "codex" as const;
  private waited = 0;
  private firstTimestamp: string | undefined;
  private model: string | undefined;
  private effort: string | undefined;
  private contextTokens = 0;
  private group: Group | null = null;

  notes(): FormatNote[] {
    return this.calls.notes;
  }

  push(record: JsonObject, line: number): MappedItem[] {
    this.line = line;
    this.sub = 0;
    const type = record.type;
    if (typeof type !== "string" || type === "") throw new FormatError(line, "Codex record has no type", "type");
    if (!isObject(record.payload)) throw new FormatError(line, `Codex ${type} record has no payload object`, "payload");
    this.firstTimestamp ??= str(record.timestamp);
    const ts = str(record.timestamp) ?? this.firstTimestamp ?? new Date(0).toISOString();
    if (type === "session_meta" && !this.header) this.makeHeader(record.payload, ts);
    else this.map(type, record.payload, ts, record);
    if (!this.header && ++this.waited >= HEADER_WAIT_RECORDS) this.makeHeader({}, ts);
    return this.drain();
  }

  end(): MappedItem[] {
    this.flushGroup();
    if (this.compaction) this.releaseCompaction(this.compaction.id);
    if (!this.header) this.makeHeader({}, this.firstTimestamp ?? new Date(0).toISOString());
    return this.drain();
  }

  private map(type: string, payload: JsonObject, ts: string, record: JsonObject): void {
    if (type === "response_item") {
      this.mapItem(payload, ts, record);
      return;
    }
    if (type === "event_msg" && payload.type === "token_count") {
      this.mapTokenCount(payload, ts, record);
      return;
    }
    if (type === "turn_context") {
      this.mapTurnContext(payload, ts, record);
      return;
    }
    if (type === "compacted") {
      this.mapCompacted(payload, ts);
      return;
    }
    const kind = type === "event_msg" ? `event/${str(payload.type) ?? "unknown"}` : type;
    if (type === "event_msg" && payload.type === "mcp_tool_call_end") {
      this.mapMcpEnd(payload, ts, record);
      return;
    }
    if (type === "event_msg" && TURN_END_EVENTS.has(str(payload.type) ?? "")) {
      this.flushGroup();
      this.place(this.custom(kind, ts, record));
      this.answerPending(ts);
      return;
    }
    this.offer(this.custom(kind, ts, record));
  }

  /**
   * An MCP call's end event: kept as a custom entry. Its result answers the call if the rollout
   * records no output item for it; a call the rollout has no item for at all (newer rollouts
   * record some MCP calls only as events) becomes a tool call and its result here.
   */
  private mapMcpEnd(payload: JsonObject, ts: string, record: JsonObject): void {
    this.offer(this.custom("event/mcp_tool_call_end", ts, record));
    if (this.calls.mcpEnd(payload) !== "unknown") return;
    const callId = payload.call_id as string;
    const invocation = isObject(payload.invocation) ? payload.invocation : {};
    const name = `mcp__${str(invocation.server) ?? "server"}__${str(invocation.tool) ?? "tool"}`;
    const args = isObject(invocation.arguments) ? invocation.arguments : {};
    if (!this.group || this.group.sawOutput) this.openGroup(ts, epochMs(ts, 0));
    const g = this.group!;
    g.entry.message.content.push({ type: "toolCall", id: callId, name, arguments: args });
    g.entry.message.stopReason = "toolUse";
    (g.entry.source.items as JsonObject[]).push({ line: this.line, type: "mcp_tool_call_end", call_id: callId });
    this.toolNames.set(callId, name);
    this.calls.answeredBy(callId);
    g.sawOutput = true;
    g.held.push(this.resultEntry(callId, mcpResultOf(payload), ts, { itemType: "mcp_tool_call_end" }));
  }

  private mapItem(payload: JsonObject, ts: string, record: JsonObject): void {
    const time = epochMs(ts, 0);
    const itemType = str(payload.type) ?? "unknown";
    if (itemType === "message" && payload.role !== "assistant") {
      this.flushGroup();
      this.answerPending(ts);
      const content = messageParts(payload.content);
      const role = str(payload.role) ?? "user";
      const synthetic = role !== "user" || isCodexContextText(textOf(content));
      const extra = rest(payload, ["type", "role", "content"]);
      const entry = {
        ...this.base("message", ts),
        message: { role: "user", content, ...(synthetic ? { synthetic: true } : {}), timestamp: time },
        ...(role !== "user" || Object.keys(extra).length > 0 ? { source: { ...extra, ...(role !== "user" ? { role } : {}) } } : {}),
      } as SessionEntry;
      this.place(entry);
      return;
    }
    if (isOutputItem(payload)) {
      const callId = payload.call_id as string;
      const out = itemType === "tool_search_output" ? toolSearchOutputOf(payload) : toolOutputOf(payload.output);
      this.calls.answeredBy(callId);
      const entry = this.resultEntry(callId, out, ts, { itemType });
      if (this.group) {
        this.group.sawOutput = true;
        this.group.held.push(entry);
      } else this.place(entry);
      return;
    }
    const call = toolCallOf(payload);
    const isAssistantPart = (itemType === "message" && payload.role === "assistant") || itemType === "reasoning" || call !== undefined;
    if (!isAssistantPart) {
      this.offer(this.custom(`response_item/${itemType}`, ts, record));
      return;
    }
    if (!this.group || this.group.sawOutput) this.openGroup(ts, time);
    const g = this.group!;
    if (call) {
      this.toolNames.set(call.id, call.name);
      this.calls.called(call.id, call.name, this.line);
      g.entry.message.content.push(call);
      g.entry.message.stopReason = "toolUse";
    } else if (itemType === "reasoning") {
      g.entry.message.content.push(reasoningPart(payload));
    } else {
      for (const p of messageParts(payload.content)) if (p.type === "text") g.entry.message.content.push(p);
    }
    const items = g.entry.source.items as JsonObject[];
    items.push({ line: this.line, ...rest(payload, ["content", "summary", "arguments", "input", "action", "encrypted_content"]) });
  }

  private openGroup(ts: string, time: number): void {
    this.flushGroup();
    this.answerPending(ts);
    const message: AssistantMessage = {
      role: "assistant",
      content: [],
      api: "openai-responses",
      provider: this.provider,
      model: this.model ?? "unknown",
      usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0 },
      stopReason: "stop",
      timestamp: time,
    };
    const entry = { ...this.base("message", ts), message, source: { items: [] } } as unknown as Group["entry"];
    this.group = { entry, line: this.line, sawOutput: false, held: [] };
  }

  private mapTokenCount(payload: JsonObject, ts: string, record: JsonObject): void {
    const usage = usageOfTokenCount(payload);
    if (usage) this.contextTokens = usage.totalTokens ?? this.contextTokens;
    const g = this.group;
    if (!g || !usage) {
      this.offer(this.custom("event/token_count", ts, record));
      return;
    }
    g.entry.message.usage = usage;
    g.entry.source.tokenCount = payload;
    this.flushGroup();
  }

  private mapTurnContext(payload: JsonObject, ts: string, record: JsonObject): void {
    this.flushGroup();
    this.answerPending(ts);
    const model = str(payload.model);
    const effort = str(payload.effort) ?? (isObject(payload.reasoning) ? str(payload.reasoning.effort) : undefined);
    const entries: SessionEntry[] = [];
    if (model && model !== this.model) {
      this.model = model;
      entries.push({ ...this.base("model_change", ts), model: modelRef(this.provider, model) } as SessionEntry);
    }
    if (effort !== this.effort && (effort !== undefined || this.effort !== undefined)) {
      this.effort = effort;
      entries.push({ ...this.base("thinking_level_change", ts), thinkingLevel: effort ?? "off" } as SessionEntry);
    }
    if (entries.length === 0) {
      this.place(this.custom("turn_context", ts, record));
      return;
    }
    (entries[0] as SessionEntry & { source?: unknown }).source = payload;
    for (const e of entries) this.place(e);
  }

  private mapCompacted(payload: JsonObject, ts: string): void {
    this.flushGroup();
    this.answerPending(ts);
    if (this.compaction) this.releaseCompaction(this.compaction.id);
    const history = payload.replacement_history;
    const entry = {
      ...this.base("compaction", ts),
      summary: str(payload.message) ?? "",
      firstKeptEntryId: "",
      tokensBefore: this.contextTokens,
      ...(Array.isArray(history) ? { preserveData: { codexReplacementHistory: history } } : {}),
      details: rest(payload, ["message", "replacement_history"]),
    } as CompactionEntry;
    entry.parentId = this.lastId;
    this.lastId = entry.id;
    this.compaction = entry;
  }

  /** Places an entry now, or after the open response when there is one. */
  private offer(entry: SessionEntry): void {
    if (this.group) this.group.held.push(entry);
    else this.place(entry);
  }

  private flushGroup(): void {
    const g = this.group;
    if (!g) return;
    this.group = null;
    const m = g.entry.message;
    if (m.stopReason !== "toolUse" && m.content.some((p) => p.type === "toolCall")) m.stopReason = "toolUse";
    this.place(g.entry as SessionEntry, g.line);
    for (const e of g.held) this.place(e);
  }
}
