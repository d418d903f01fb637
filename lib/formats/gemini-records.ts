/**
 * Gemini CLI 0.39+ chat recordings (`chats/session-*.jsonl`): one JSON record a line, folded
 * into the conversation document the older `session-*.json` files hold (gemini-map.ts maps it).
 * Pure: no network, disk or database access.
 *
 * The records, as Gemini CLI writes them: first the metadata (`sessionId`, `projectHash`,
 * `startTime`, `lastUpdated`, `kind`, `directories`, `summary`); then messages, each written
 * again whole (same `id`) whenever it changes — its tool calls' results and its token counts
 * arrive later — so the last record of an id wins and keeps the place of the first;
 * `{ $set: {…} }` updates the metadata (with `messages`, a checkpoint that replaces them all);
 * `{ $rewindTo: id }` drops that message and every later one (the user went back to it).
 * Folding them the same way gives the conversation Gemini CLI itself resumes. Records of no
 * known shape are counted in `ignored` and kept nowhere but in the original file.
 */
import { isObject, type JsonObject } from "./types";

/** True when `value` is the metadata record a Gemini CLI JSONL recording starts with. */
export function isGeminiMetadataRecord(value: unknown): value is JsonObject {
  return isObject(value) && typeof value.sessionId === "string" && typeof value.projectHash === "string" && value.type === undefined && !Array.isArray(value.messages);
}

export class GeminiRecordFolder {
  private metadata: JsonObject = {};
  private readonly messages = new Map<string, JsonObject>();
  /** Records read. */
  records = 0;
  /** Records of no known shape. */
  ignored = 0;

  push(record: JsonObject): void {
    this.records += 1;
    if (typeof record.$rewindTo === "string") {
      this.rewind(record.$rewindTo);
      return;
    }
    if (isObject(record.$set)) {
      const { messages, ...meta } = record.$set;
      if (Array.isArray(messages)) {
        this.messages.clear();
        this.addAll(messages);
      }
      this.metadata = { ...this.metadata, ...meta };
      return;
    }
    if (typeof record.id === "string") {
      this.messages.set(record.id, record);
      return;
    }
    if (typeof record.sessionId === "string") {
      const { messages, ...meta } = record;
      if (Array.isArray(messages)) this.addAll(messages);
      this.metadata = { ...this.metadata, ...meta };
      return;
    }
    this.ignored += 1;
  }

  /** The folded conversation: the metadata with `messages` in order. */
  conversation(): JsonObject {
    return { ...this.metadata, messages: [...this.messages.values()], ...(this.ignored > 0 ? { ignoredRecords: this.ignored } : {}) };
  }

  private addAll(messages: unknown[]): void {
    for (const m of messages) if (isObject(m) && typeof m.id === "string") this.messages.set(m.id, m);
  }

  private rewind(id: string): void {
    if (!this.messages.has(id)) {
      this.messages.clear();
      return;
    }
    let dropping = false;
    for (const key of [...this.messages.keys()]) {
      if (key === id) dropping = true;
      if (dropping) this.messages.delete(key);
    }
  }
}
