/**
 * Where each entry of a Claude Code thread hangs (the mapping is docs/formats.md's; the record
 * reading is claude-code/map.ts, which extends this class): ids (`<uuid>~<line>` for a uuid seen
 * twice), parents resolved through aliases (the later uuids of a grouped response, a compact
 * summary) and through records without a uuid (placed after the tail, so no false branch), the
 * compaction entry held until its summary and the first entry after it, and the queue of mapped
 * items. Pure: no network, disk or database access.
 */
import type { CompactionEntry, SessionEntry } from "@/lib/session/types";
import { userContent } from "./content";
import type { Piece } from "./records";
import { type FormatNote, isObject, type JsonObject, type MappedItem, num, str } from "@/lib/formats/types";

export abstract class ClaudeCodeTree {
  protected queue: MappedItem[] = [];
  /** Placed entry ids → the line of their record. */
  protected readonly ids = new Map<string, number>();
  /** What the mapping had to repair, by line (the import reports them). */
  protected readonly repaired: FormatNote[] = [];
  protected readonly alias = new Map<string, string>();
  private readonly after = new Map<string, string>();
  protected lastId: string | null = null;
  /** The last of the records placed before any conversation record, while there are only such. */
  private leadingTail: string | null = null;
  protected compaction: { entry: CompactionEntry; line: number; awaitingSummary: boolean; held: MappedItem[] } | null = null;

  /**
   * A `compact_boundary` record: a compaction entry hung under `logicalParentUuid`, held until its
   * summary record and the first entry placed after it.
   */
  protected mapBoundary(record: JsonObject, line: number, fallbackTs: string): void {
    if (this.compaction) this.releaseCompaction(this.compaction.entry.id);
    const meta = isObject(record.compactMetadata) ? record.compactMetadata : {};
    const entry: CompactionEntry = {
      type: "compaction",
      id: record.uuid as string,
      parentId: null,
      timestamp: str(record.timestamp) ?? fallbackTs,
      summary: "",
      firstKeptEntryId: "",
      tokensBefore: num(meta.preTokens),
      details: { boundary: record },
    };
    if (typeof entry.id !== "string") entry.id = `L${line}`;
    const parentUuid = str(record.logicalParentUuid) ?? str(record.parentUuid) ?? null;
    this.assignId(entry as SessionEntry, line);
    entry.parentId = parentUuid === null ? null : this.parentOf(parentUuid, line);
    this.lastId = entry.id;
    this.compaction = { entry, line, awaitingSummary: true, held: [] };
  }

  protected mapCompactSummary(record: JsonObject, message: JsonObject): void {
    const c = this.compaction!;
    const { parts } = userContent(message.content);
    c.entry.summary = parts.map((p) => (p.type === "text" ? p.text : "")).join("\n");
    (c.entry.details as JsonObject).summaryRecord = record;
    c.awaitingSummary = false;
    this.alias.set(record.uuid as string, c.entry.id);
  }

  protected resolve(uuid: string): string {
    let id = this.alias.get(uuid) ?? uuid;
    for (let next = this.after.get(id); next !== undefined; next = this.after.get(id)) id = next;
    return id;
  }

  protected assignId(entry: SessionEntry, line: number): void {
    const original = entry.id;
    const first = this.ids.get(original);
    if (first !== undefined) {
      let id = `${original}~${line}`;
      for (let k = 2; this.ids.has(id); k++) id = `${original}~${line}.${k}`;
      entry.id = id;
      this.alias.set(original, id);
      this.repaired.push({ line, message: `uuid ${original} is used again (first on line ${first}): this record is kept as ${id}` });
    }
    this.ids.set(entry.id, line);
  }

  /**
   * The entry a parentUuid names; one that names no record before it (another file's record, a
   * later one, a cycle) cannot be a parent: the entry starts a root, and that is reported.
   */
  protected parentOf(uuid: string, line: number): string | null {
    const id = this.resolve(uuid);
    if (this.ids.has(id)) return id;
    this.repaired.push({ line, message: `parentUuid ${uuid} names no record before this one: it starts a new root` });
    return this.leadingTail;
  }

  /** Places `piece` under `parentId` (default: from its ParentRef) and queues it. */
  protected place(piece: Piece, parentId?: string | null): void {
    const { entry, parent } = piece;
    this.assignId(entry, piece.line);
    if (parentId !== undefined) entry.parentId = parentId;
    else if (parent.kind === "uuid") entry.parentId = parent.uuid === null ? this.leadingTail : this.parentOf(parent.uuid, piece.line);
    else if (parent.kind === "previous") entry.parentId = this.lastId;
    else entry.parentId = this.lastId === null ? null : this.resolve(this.lastId);
    // A record without a uuid goes after the tail; what names the tail later hangs under it
    // instead (also when it was held with a response and placed after it), so no false branch.
    if (parent.kind === "inline" && entry.parentId !== null) this.after.set(entry.parentId, entry.id);
    for (const u of piece.aliases ?? []) if (u !== entry.id) this.alias.set(u, entry.id);
    // Records before the first conversation record (a leading snapshot) head the first root.
    this.leadingTail = parent.kind === "inline" && (this.leadingTail !== null || this.lastId === null) ? entry.id : null;
    this.lastId = entry.id;
    const item: MappedItem = { kind: "entry", entry, line: piece.line };
    const c = this.compaction;
    if (c?.awaitingSummary && entry.type === "custom") {
      // A snapshot between the boundary and its summary: the summary may still come.
      c.held.push(item);
      return;
    }
    if (c) this.releaseCompaction(c.held[0]?.kind === "entry" ? c.held[0].entry.id : entry.id);
    this.queue.push(item);
  }

  protected releaseCompaction(firstKeptEntryId: string): void {
    const c = this.compaction!;
    this.compaction = null;
    c.entry.firstKeptEntryId = firstKeptEntryId;
    this.queue.push({ kind: "entry", entry: c.entry as SessionEntry, line: c.line }, ...c.held);
  }
}
