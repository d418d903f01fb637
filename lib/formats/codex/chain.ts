/**
 * The linear chain a Codex rollout maps to (the mapping is docs/formats.md's; the record reading
 * is codex/map.ts, which extends this class): the header, ids `L<line>` (`L<line>.<k>` when one
 * line gives several entries, `L<call line>.r` for a result answered for a call without one),
 * every entry's parent the previous entry, the compaction waiting for the next entry (its
 * `firstKeptEntryId`), and the queue of mapped items. Pure: no network, disk or database access.
 */
import type { CompactionEntry, SessionEntry, SessionHeader } from "@/lib/session/types";
import { CodexCalls } from "./calls";
import type { ToolOutput } from "./items";
import { epochMs, type JsonObject, type MappedItem, rest, str } from "@/lib/formats/types";

export abstract class CodexChain {
  protected header: SessionHeader | null = null;
  protected queue: MappedItem[] = [];
  protected lastId: string | null = null;
  protected provider = "openai";
  protected readonly toolNames = new Map<string, string>();
  protected compaction: CompactionEntry | null = null;
  protected line = 0;
  protected sub = 0;
  protected readonly calls = new CodexCalls();

  protected drain(): MappedItem[] {
    if (!this.header) return [];
    const out = this.queue;
    this.queue = [];
    return out;
  }

  protected makeHeader(payload: JsonObject, ts: string): void {
    this.provider = str(payload.model_provider) ?? this.provider;
    const forked = str(payload.forked_from_id);
    this.header = {
      type: "session",
      version: 3,
      id: str(payload.id) ?? "codex-session",
      timestamp: str(payload.timestamp) ?? ts,
      cwd: str(payload.cwd) ?? "",
      ...(forked ? { parentSession: forked } : {}),
      sourceFormat: "codex",
      codex: rest(payload, ["id", "timestamp", "cwd"]),
    };
    this.queue.unshift({ kind: "header", header: this.header, line: 0 });
  }

  protected nextId(): string {
    const id = this.sub === 0 ? `L${this.line}` : `L${this.line}.${this.sub}`;
    this.sub += 1;
    return id;
  }

  protected base(type: string, ts: string): { type: string; id: string; parentId: null; timestamp: string } {
    return { type, id: this.nextId(), parentId: null, timestamp: ts };
  }

  protected custom(kind: string, ts: string, record: JsonObject): SessionEntry {
    return { ...this.base("custom", ts), customType: `codex/${kind}`, data: rest(record, ["timestamp"]) } as SessionEntry;
  }

  protected resultEntry(callId: string, out: ToolOutput, ts: string, source: JsonObject): SessionEntry {
    return {
      ...this.base("message", ts),
      message: {
        role: "toolResult",
        toolCallId: callId,
        toolName: this.toolNames.get(callId) ?? "unknown",
        content: out.content,
        isError: out.isError,
        ...(out.details !== undefined ? { details: out.details } : {}),
        timestamp: epochMs(ts, 0),
      },
      source,
    } as SessionEntry;
  }

  /**
   * The turn has moved on (a new response, prompt, turn, compaction, or the turn's end event):
   * every call still without an output is answered now (codex/calls.ts), so every call in the
   * context has its result. Ids `L<call line>.r`.
   */
  protected answerPending(ts: string): void {
    for (const s of this.calls.settle()) {
      const entry = this.resultEntry(s.callId, s.output, ts, { synthetic: s.by });
      entry.id = `L${s.line}.r`;
      this.place(entry);
    }
  }

  protected place(entry: SessionEntry, line = this.line): void {
    entry.parentId = this.lastId;
    this.lastId = entry.id;
    if (this.compaction) this.releaseCompaction(entry.id);
    this.queue.push({ kind: "entry", entry, line });
  }

  protected releaseCompaction(firstKeptEntryId: string): void {
    const c = this.compaction!;
    this.compaction = null;
    c.firstKeptEntryId = firstKeptEntryId;
    this.queue.push({ kind: "entry", entry: c as SessionEntry, line: Number(c.id.slice(1).split(".")[0]) || 0 });
  }
}
