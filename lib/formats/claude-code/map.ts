/**
 * Claude Code session files (`~/.claude/projects/<project>/<sessionId>.jsonl`) → Arbor entries,
 * one record at a time (the FormatMapper contract in types.ts). Where the entries hang (ids,
 * parents, the compaction held for its summary) is claude-code/tree.ts, which this class extends.
 * Pure: no network, disk or database access.
 *
 * Mapping (docs/formats.md):
 * - The header comes from the first record with a `sessionId` (id, cwd, timestamp; the CLI
 *   version, git branch and user type are kept under `claudeCode`). A subagent file (its first
 *   record a sidechain record with an `agentId`) gets the id `<sessionId>.agent-<agentId>` and
 *   `parentSession` = the parent's id; the parent's Task tool result that names the agent
 *   carries `subagentSessionId`, the link to it.
 * - `uuid` / `parentUuid` become `id` / `parentId`, so siblings are branches.
 * - Assistant records sharing one `message.id` (Claude Code writes one record per content
 *   block) become ONE assistant message with the first record's uuid. Records arriving while
 *   that response is open (its tool results, progress records) are held and placed after it,
 *   chained in file order; the later uuids of the response resolve to the last placed entry.
 * - `system` / `compact_boundary` + the following `isCompactSummary` user record become one
 *   compaction entry: the boundary's uuid, hung under `logicalParentUuid`, summary = the
 *   summary record's text, `tokensBefore` = `compactMetadata.preTokens`, `firstKeptEntryId` =
 *   the first entry placed after it (nothing before the boundary is kept, as in Claude Code).
 * - `summary` records (`leafUuid`) become, where they stand, a label on the entry they name, or
 *   a custom entry when it is not placed yet (another file's, or a later one: its label is
 *   added at the end). `ai-title` / `custom-title` become `session_info` entries (the title);
 *   `system` / `api_error` records failed assistant calls.
 * - Everything else (`file-history-snapshot`, `queue-operation`, `attachment`, `progress`, other
 *   `system` subtypes, `isMeta` user records, unknown types) becomes a `custom` entry
 *   (`claude-code/<type>[/<subtype>]`) holding the record: never sent to a model. Records
 *   without a uuid are inserted after the current tail, and the next record that named the tail
 *   as its parent hangs under them instead, so they add no branches.
 * - A uuid seen twice keeps both records: the second becomes `<uuid>~<line>`.
 */
import type { SessionEntry, SessionHeader } from "@/lib/session/types";
import { ClaudeCodeTree } from "./tree";
import {
  type AssistantPiece,
  apiErrorPiece,
  assistantPiece,
  customPiece,
  mergeAssistant,
  NO_LINKS,
  type Piece,
  SESSION_KEYS,
  subagentSessionId,
  titleOf,
  titlePiece,
  userPieces,
} from "./records";
import { userContent } from "./content";
import { FormatError, type FormatMapper, type FormatNote, isObject, type JsonObject, type MappedItem, str } from "@/lib/formats/types";

/** Records read without finding a sessionId before a header is made up from what is known. */
const HEADER_WAIT_RECORDS = 200;

interface Group {
  piece: AssistantPiece;
  messageId: string | undefined;
  /** Source uuids of the response and of the records held with it. */
  uuids: Set<string>;
  laterUuids: string[];
  held: Piece[];
}

export interface ClaudeMapperOptions {
  /** A sidechain run of another file (claude-code/file.ts): its session id and parent, fixed. */
  sidechain?: { id: string; parentSession: string; rootUuid: string };
  /** Task tool-use ids → the session of the sidechain run that answered them. */
  links?: ReadonlyMap<string, string>;
}

/** One conversation thread's mapper; files go through createClaudeCodeMapper (claude-code/file.ts), which splits off inline sidechains. */
export class ClaudeCodeMapper extends ClaudeCodeTree implements FormatMapper {
  readonly format = "claude-code" as const;
  private header: SessionHeader | null = null;
  private session: JsonObject = {};
  private waited = 0;
  private firstTimestamp: string | undefined;
  private readonly toolNames = new Map<string, string>();
  private group: Group | null = null;
  private readonly summaries: { leafUuid: string; summary: string; record: JsonObject; line: number }[] = [];
  /** The kind of the last title record placed: a `custom-title` (the user's) outranks later `ai-title`s. */
  private titled: "custom" | "ai" | undefined;
  private lastModel: string | undefined;

  constructor(private readonly opts: ClaudeMapperOptions = {}) {
    super();
  }

  notes(): FormatNote[] {
    return this.repaired;
  }

  push(record: JsonObject, line: number): MappedItem[] {
    const type = record.type;
    if (typeof type !== "string" || type === "") throw new FormatError(line, "Claude Code record has no type", "type");
    this.firstTimestamp ??= str(record.timestamp);
    if (!this.header && typeof record.sessionId === "string") this.makeHeader(record);
    this.map(record, type, line);
    if (!this.header && ++this.waited >= HEADER_WAIT_RECORDS) this.makeHeader(record);
    return this.drain();
  }

  end(): MappedItem[] {
    this.flushGroup();
    for (const s of this.summaries) this.lateSummary(s);
    if (this.compaction) this.releaseCompaction(this.compaction.held[0]?.kind === "entry" ? this.compaction.held[0].entry.id : this.compaction.entry.id);
    if (!this.header) this.makeHeader({});
    return this.drain();
  }

  private drain(): MappedItem[] {
    if (!this.header) return [];
    const out = this.queue;
    this.queue = [];
    return out;
  }

  private makeHeader(record: JsonObject): void {
    const claudeCode: JsonObject = {};
    for (const k of SESSION_KEYS) if (record[k] !== undefined) claudeCode[k] = record[k];
    this.session = claudeCode;
    // A subagent file: its records are sidechain records with the parent's sessionId and an agentId.
    const parent = str(record.sessionId);
    const agentId = record.isSidechain === true ? str(record.agentId) : undefined;
    if (agentId) claudeCode.agentId = agentId;
    const side = this.opts.sidechain;
    if (side) claudeCode.sidechainRootUuid = side.rootUuid;
    const id = side?.id ?? (parent && agentId ? subagentSessionId(parent, agentId) : (parent ?? "claude-code-session"));
    const parentSession = side?.parentSession ?? (parent && agentId ? parent : undefined);
    this.header = {
      type: "session",
      version: 3,
      id,
      ...(parentSession ? { parentSession } : {}),
      timestamp: str(record.timestamp) ?? this.firstTimestamp ?? new Date(0).toISOString(),
      cwd: str(record.cwd) ?? "",
      sourceFormat: "claude-code",
      claudeCode,
    };
    this.queue.unshift({ kind: "header", header: this.header, line: 0 });
  }

  private get fallbackTs(): string {
    return this.firstTimestamp ?? new Date(0).toISOString();
  }

  private map(record: JsonObject, type: string, line: number): void {
    const chained = type === "user" || type === "assistant";
    if (chained && typeof record.uuid !== "string") throw new FormatError(line, `Claude Code ${type} record has no uuid`, "uuid");
    const message = record.message;
    if (chained && !isObject(message)) {
      // A known record in a shape Claude Code does not write: kept whole, and said.
      this.repaired.push({ line, message: `${type} record's message is ${message === undefined ? "missing" : `not an object (${typeof message})`}: kept as a custom entry` });
    }
    if (type === "assistant" && isObject(message) && record.isMeta !== true) {
      this.mapAssistant(record, line, message);
      return;
    }
    if (type === "user" && isObject(message) && record.isCompactSummary === true && this.compaction?.awaitingSummary) {
      this.mapCompactSummary(record, message);
      return;
    }
    if (type === "user" && isObject(message) && record.isMeta !== true && record.isCompactSummary !== true) {
      this.mapUser(record, line, message);
      return;
    }
    if (type === "system" && record.subtype === "compact_boundary") {
      this.flushGroup();
      this.mapBoundary(record, line, this.fallbackTs);
      return;
    }
    if (type === "summary" && typeof record.leafUuid === "string") {
      this.mapSummary({ leafUuid: record.leafUuid, summary: str(record.summary) ?? "", record, line });
      return;
    }
    const title = titleOf(record);
    if (title && (title.kind === "custom" || this.titled !== "custom")) {
      this.titled = title.kind;
      this.offer(titlePiece(record, title.name, line, this.fallbackTs));
      return;
    }
    if (type === "system" && record.subtype === "api_error" && typeof record.uuid === "string") {
      this.flushGroup();
      this.place(apiErrorPiece(record, line, this.session, this.lastModel, this.fallbackTs));
      return;
    }
    this.offer(customPiece(record, line, this.fallbackTs));
  }

  private mapAssistant(record: JsonObject, line: number, message: JsonObject): void {
    const messageId = str(message.id);
    const g = this.group;
    if (g && messageId !== undefined && g.messageId === messageId) {
      mergeAssistant(g.piece, record, this.session);
      g.uuids.add(record.uuid as string);
      g.laterUuids.push(record.uuid as string);
      this.noteToolNames(g.piece);
      return;
    }
    this.flushGroup();
    const piece = assistantPiece(record, line, this.session, this.fallbackTs, this.lastModel);
    if (piece.message.model !== "unknown") this.lastModel = piece.message.model;
    this.noteToolNames(piece);
    this.group = { piece, messageId, uuids: new Set([record.uuid as string]), laterUuids: [], held: [] };
  }

  private noteToolNames(piece: AssistantPiece): void {
    for (const part of piece.message.content) if (part.type === "toolCall") this.toolNames.set(part.id, part.name);
  }

  private mapUser(record: JsonObject, line: number, message: JsonObject): void {
    const pieces = userPieces(record, line, this.session, { toolNames: this.toolNames, links: this.opts.links ?? NO_LINKS }, this.fallbackTs);
    const g = this.group;
    const onlyResults = userContent(message.content).parts.length === 0;
    if (g && onlyResults && g.uuids.has(str(record.parentUuid) ?? "")) {
      g.held.push(...pieces);
      g.uuids.add(record.uuid as string);
      return;
    }
    this.flushGroup();
    for (const p of pieces) this.place(p);
  }


  /** A piece while a response may be open: held if it belongs to it, else placed. */
  private offer(piece: Piece): void {
    const g = this.group;
    if (g && (piece.parent.kind !== "uuid" || (piece.parent.uuid !== null && g.uuids.has(piece.parent.uuid)))) {
      g.held.push(piece);
      const uuid = str((piece.entry as JsonObject).id);
      if (piece.parent.kind === "uuid" && uuid) g.uuids.add(uuid);
      return;
    }
    this.flushGroup();
    this.place(piece);
  }

  private flushGroup(): void {
    const g = this.group;
    if (!g) return;
    this.group = null;
    this.place(g.piece);
    for (const held of g.held) {
      const linear = held.parent.kind !== "uuid" || (held.parent.uuid !== null && g.uuids.has(held.parent.uuid));
      this.place(held, linear ? this.lastId : undefined);
    }
    for (const u of g.laterUuids) this.alias.set(u, this.lastId!);
  }


  /**
   * A `summary` names a conversation by its last record. Where it stands in the file: a label on
   * that record when it is already placed, else a custom entry (a record of another file, or one
   * still to come); both go after the tail like any record without a uuid, so nothing branches
   * when the file grows. A summary whose record came later gets its label at the end
   * (`L<line>+label`).
   */
  private mapSummary(s: { leafUuid: string; summary: string; record: JsonObject; line: number }): void {
    const target = this.resolve(s.leafUuid);
    if (!this.ids.has(target)) {
      this.summaries.push(s);
      this.offer(customPiece(s.record, s.line, this.fallbackTs));
      return;
    }
    this.offer({ entry: this.summaryLabel(s, `L${s.line}`, target), parent: { kind: "inline" }, line: s.line });
  }

  private lateSummary(s: { leafUuid: string; summary: string; record: JsonObject; line: number }): void {
    const target = this.resolve(s.leafUuid);
    if (this.ids.has(target)) this.place({ entry: this.summaryLabel(s, `L${s.line}+label`, target), parent: { kind: "previous" }, line: s.line });
  }

  private summaryLabel(s: { summary: string; record: JsonObject }, id: string, targetId: string): SessionEntry {
    return { type: "label", id, parentId: null, timestamp: str(s.record.timestamp) ?? this.fallbackTs, targetId, label: s.summary, source: s.record } as SessionEntry;
  }
}
