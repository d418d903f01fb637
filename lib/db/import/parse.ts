import "server-only";
/**
 * The reading side of an import (lib/db/import/import.ts): finding the session header, and the state
 * gathered while entries stream past (skipped lines, ids seen, title, model, labels, the batch).
 * Memory: one short id per entry (duplicate detection); the current batch is only counted (its
 * rows are encoded for the COPY as they come, so their parsed objects die young).
 */
import { DEFAULT_MAX_SKIPPED_LINES, MAX_REPORTED_TRUNCATIONS } from "@/lib/import-limits";
import { idWithNul } from "@/lib/session/file/ids";
import { unsupportedVersion } from "@/lib/session/file/migrations";
import { PromptTitle } from "@/lib/session/prompt-title";
import { isSessionHeader, parseJsonlLine, type SkippedLine } from "@/lib/session/file/jsonl";
import type { PersistCuts } from "@/lib/session/file/sanitize";
import type { SessionEntry, SessionHeader } from "@/lib/session/types";
import { entryModel, type EntryRow } from "../store/entry-columns";
import { formatBytes } from "@/lib/text/byte-size";
import { ImportError, LimitError } from "../errors";
import type { Line, LineReader } from "./line-reader";
import { normalizeTitle } from "../store/session-rows";
import { labelChanges } from "../store/sql";
import { type UsageRow, usageRowOf } from "@/lib/usage/rows";

/** A session header is the first object; this much input without one means "not a session". */
export const HEADER_SCAN_BYTES = 1024 * 1024;
/** At most this many skipped lines are listed (all are counted). */
const MAX_REPORTED_SKIPS = 1000;

export type Lines = AsyncGenerator<Line>;

/** An entry whose long strings were cut to MAX_PERSIST_CHARS before it was stored (session-engine.md §1.9). */
export interface TruncatedEntry {
  /** 1-based line in the file. */
  line: number;
  id: string;
  /** How many of its strings were cut. */
  strings: number;
  /** Characters removed in all. */
  charsRemoved: number;
  /** Length of its longest cut string before the cut. */
  longest: number;
}

/** Collects skipped lines and the session facts derived while streaming. */
export class ImportState {
  readonly skipped: SkippedLine[] = [];
  skippedCount = 0;
  /** What was repaired on the way in (two objects on one line read, a uuid used twice renamed, …), by line: the first 1000; `repairCount` counts all. */
  readonly repairs: { line: number; message: string }[] = [];
  repairCount = 0;
  /** The first MAX_REPORTED_TRUNCATIONS entries that were cut; `truncatedCount` counts all. */
  readonly truncated: TruncatedEntry[] = [];
  truncatedCount = 0;
  readonly firstLine = new Map<string, number>();
  readonly labels = new Map<string, string | null>();
  /** Entries and line bytes since the last flush. */
  batchCount = 0;
  batchBytes = 0;
  count = 0;
  lastId: string | null = null;
  model: string | null = null;
  latest = Number.NEGATIVE_INFINITY;
  /** The first prompt a person typed (session-engine.md §1.2). */
  readonly prompts = new PromptTitle();
  sessionInfoName: string | undefined;
  /** A Claude Code `summary` record's label (docs/formats.md): the title when nothing names the session. */
  summaryTitle: string | undefined;
  /** Custom entries without a notice (records kept, not shown) per customType. */
  readonly kept = new Map<string, number>();
  /** Links the file names for the session page (a Claude Code `pr-link`), by URL. */
  readonly links = new Map<string, string>();
  /** The usage ledger's rows of the entries so far (lib/db/usage/ledger-write.ts). */
  readonly usage: UsageRow[] = [];
  /** The header's time (ms), for an entry without a time of its own. */
  headerTime = 0;

  constructor(
    private readonly file: string,
    private readonly maxSkippedLines = DEFAULT_MAX_SKIPPED_LINES,
  ) {}

  /** Records a skipped line; past `maxSkippedLines` the file is refused (it is not a session). */
  skip(s: SkippedLine): void {
    this.skippedCount += 1;
    if (this.skipped.length < MAX_REPORTED_SKIPS) this.skipped.push(s);
    if (this.skippedCount <= this.maxSkippedLines) return;
    throw new LimitError({
      code: "too_many_skipped_lines",
      file: this.file,
      line: s.line,
      limit: this.maxSkippedLines,
      message: `${this.file}:${s.line}: more than ${this.maxSkippedLines.toLocaleString("en-US")} lines are not JSON objects (this one: ${s.reason}); is this a session file?`,
    });
  }

  repair(note: { line: number; message: string }): void {
    this.repairCount += 1;
    if (this.repairs.length < MAX_REPORTED_SKIPS) this.repairs.push(note);
  }

  /** Records that the entry on `line` had strings cut (no-op when `cuts` is empty). */
  noteCuts(line: number, id: string, cuts: PersistCuts): void {
    if (cuts.strings === 0) return;
    this.truncatedCount += 1;
    if (this.truncated.length < MAX_REPORTED_TRUNCATIONS) this.truncated.push({ line, id, ...cuts });
  }

  add(row: EntryRow, approxBytes: number): void {
    const e = row.data as SessionEntry & Record<string, unknown>;
    this.lastId = row.id;
    this.model = entryModel(e) ?? this.model;
    const t = Date.parse(row.timestamp);
    if (t > this.latest) this.latest = t;
    if (e.type === "label") labelChanges([e], this.labels);
    if (e.type === "session_info") this.sessionInfoName = normalizeTitle(typeof e.name === "string" ? e.name : undefined);
    if (e.type === "message" && e.message?.role === "user") this.prompts.offer(e.message);
    if (e.type === "label" && isSummaryRecord(e.source)) this.summaryTitle = normalizeTitle(e.label) ?? this.summaryTitle;
    if (e.type === "custom") {
      // A custom entry with a notice is shown in the chat: not "kept, not shown".
      if (typeof e.notice !== "string") this.kept.set(e.customType, (this.kept.get(e.customType) ?? 0) + 1);
      const link = linkOf(e.data);
      if (link) this.links.set(link.url, link.title);
    }
    const usage = usageRowOf(e, this.headerTime);
    if (usage) this.usage.push(usage);
    this.batchCount += 1;
    this.batchBytes += approxBytes;
  }
}

function isSummaryRecord(source: unknown): boolean {
  return typeof source === "object" && source !== null && (source as { type?: unknown }).type === "summary";
}

/** A Claude Code `pr-link` record's pull request (`prUrl`, `prNumber`, `prRepository`). */
function linkOf(data: unknown): { url: string; title: string } | undefined {
  if (typeof data !== "object" || data === null) return undefined;
  const d = data as Record<string, unknown>;
  if (d.type !== "pr-link" || typeof d.prUrl !== "string" || !/^https?:\/\//.test(d.prUrl)) return undefined;
  const repo = typeof d.prRepository === "string" ? `${d.prRepository} ` : "";
  return { url: d.prUrl, title: typeof d.prNumber === "number" ? `PR ${repo}#${d.prNumber}` : "Pull request" };
}

/** The report's words for a line that held `n` JSON objects with no newline between them. */
export function joinedNote(n: number): string {
  return `${n} JSON objects on one line with no newline between them (a writer's bug): all ${n} were read`;
}

export function entryError(file: string, line: number, field: string, what: string): ImportError {
  return new ImportError({ code: "invalid_entry", file, line, field, message: `${file}:${line}: ${what} (field ${field})` });
}

/**
 * An id with a NUL character cannot be stored (lib/session/file/ids.ts idWithNul): the import is
 * refused at the line. `text` is the line: a NUL can only be there escaped, so lines without
 * `\\u0000` are not looked into.
 */
export function nulInIds(file: string, line: number, text: string, entry: Record<string, unknown>): ImportError | undefined {
  if (!text.includes("\\u0000")) return undefined;
  const bad = idWithNul(entry);
  return bad && entryError(file, line, bad.field, `${bad.name} contains a NUL character`);
}

/** Control characters (other than whitespace) or U+FFFD (invalid UTF-8): not a text line. */
const BINARY = /[\u0000-\u0008\u000e-\u001f\ufffd]/;
const HEADER_START = /^\s*\{\s*"type"\s*:\s*"session"/;

/** " — the file ends in the middle of this line (was it cut off?)" for a broken last line. */
export function truncationNote(line: Line): string {
  return line.unterminated ? " — the file ends in the middle of this line (was it cut off?)" : "";
}

/** Why no header was found, from the lines skipped while looking for it. */
class HeaderClues {
  private binary: { line: number; gzip: boolean } | undefined;
  private brokenHeader: Line | undefined;

  note(line: Line): void {
    if (!this.brokenHeader && HEADER_START.test(line.text)) this.brokenHeader = line;
    if (!this.binary && BINARY.test(line.text)) {
      // gzip files start with the bytes 1f 8b (8b alone is not UTF-8, so it decodes to U+FFFD).
      this.binary = { line: line.number, gzip: line.number === 1 && line.text.startsWith("\u001f\ufffd") };
    }
  }

  reason(fallback: string): string {
    if (this.brokenHeader) return `line ${this.brokenHeader.number}: the session header is not valid JSON${truncationNote(this.brokenHeader)}`;
    if (this.binary?.gzip) return "line 1: the file is gzip-compressed; decompress it and import the .jsonl inside";
    if (this.binary) return `line ${this.binary.line}: binary data, not a JSONL text file`;
    return fallback;
  }
}

/**
 * The session header: the first JSON object. `tried` (from detection: why the file is none of
 * the formats) replaces the plain "not a session header" reason when the first object is not one.
 */
export async function readHeader(
  lines: Lines,
  reader: LineReader,
  file: string,
  state: ImportState,
  tried?: readonly string[],
): Promise<{ header: SessionHeader; line: number }> {
  const notSession = (detail: string) => new ImportError({ code: "not_session", file, message: `${file}: not a session file (${detail})` });
  const clues = new HeaderClues();
  try {
    for (let next = await lines.next(); !next.done; next = await lines.next()) {
      const { value, skip } = parseJsonlLine(next.value.text, next.value.number);
      if (skip) {
        clues.note(next.value);
        state.skip(skip);
      } else if (!value) {
        reader.noteBlank(next.value.number); // whitespace the reader's byte check does not know
      }
      if (!value) {
        if (reader.bytesRead > HEADER_SCAN_BYTES) throw notSession(clues.reason(`no session header in the first ${formatBytes(HEADER_SCAN_BYTES)}`));
        continue;
      }
      const line = next.value.number;
      if (!isSessionHeader(value)) {
        throw notSession(tried?.length ? tried.join("; ") : `line ${line}: the first JSON object is not a session header ({"type":"session","id":…})`);
      }
      if (value.id.trim() === "") throw notSession(`line ${line}: the session header has an empty id`);
      if (value.id.includes("\0")) throw entryError(file, line, "id", "the session id contains a NUL character");
      return { header: value, line };
    }
  } catch (error) {
    if (error instanceof LimitError && error.code === "line_too_long") {
      throw notSession(`line ${error.line}: no session header; a session file starts with a short header line`);
    }
    if (error instanceof LimitError && error.code === "too_many_skipped_lines") {
      throw notSession(clues.reason(`no session header in the first ${error.line} lines`));
    }
    throw error;
  }
  throw notSession(clues.reason("no JSON object found"));
}

/** Refuses a header whose `version` Arbor cannot read (lib/session/file/migrations.ts unsupportedVersion). */
export function checkVersion(file: string, line: number, header: SessionHeader): void {
  const why = unsupportedVersion(header);
  if (why === undefined) return;
  throw new ImportError({ code: "unsupported_version", file, line, field: "version", message: `${file}:${line}: ${why}; nothing was imported` });
}
