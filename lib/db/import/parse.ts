import "server-only";
/**
 * The reading side of an import (lib/db/import/import.ts): finding the session header, and the state
 * gathered while entries stream past (skipped lines, ids seen, title, model, labels, the batch).
 * Memory: one short id per entry (duplicate detection); the current batch is only counted (its
 * rows are encoded for the COPY as they come, so their parsed objects die young).
 */
import { DEFAULT_MAX_SKIPPED_LINES, MAX_REPORTED_TRUNCATIONS } from "@/lib/import-limits";
import { userMessageText } from "@/lib/session/display-name";
import { isSessionHeader, parseJsonlLine, type SkippedLine } from "@/lib/session/jsonl";
import type { PersistCuts } from "@/lib/session/sanitize";
import { CURRENT_SESSION_VERSION, type SessionEntry, type SessionHeader } from "@/lib/session/types";
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
  firstUserText: string | undefined;
  sessionInfoName: string | undefined;
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
    if (this.firstUserText === undefined && e.type === "message" && e.message?.role === "user") {
      this.firstUserText = normalizeTitle(userMessageText(e.message));
    }
    const usage = usageRowOf(e, this.headerTime);
    if (usage) this.usage.push(usage);
    this.batchCount += 1;
    this.batchBytes += approxBytes;
  }
}

export function entryError(file: string, line: number, field: string, what: string): ImportError {
  return new ImportError({ code: "invalid_entry", file, line, field, message: `${file}:${line}: ${what} (field ${field})` });
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

export async function readHeader(lines: Lines, reader: LineReader, file: string, state: ImportState): Promise<{ header: SessionHeader; line: number }> {
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
        throw notSession(`line ${line}: the first JSON object is not a session header ({"type":"session","id":…})`);
      }
      if (value.id.trim() === "") throw notSession(`line ${line}: the session header has an empty id`);
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

/**
 * Refuses a header whose `version` Arbor cannot read. Versions 1–3 are read (session-engine.md §1.7;
 * absent = 1); a later version may change entries in ways the migrations do not know, so it is
 * refused rather than stored as if it were version 3.
 */
export function checkVersion(file: string, line: number, header: SessionHeader): void {
  const version: unknown = header.version;
  if (version === undefined || version === null) return;
  if (typeof version === "number" && Number.isInteger(version) && version >= 1 && version <= CURRENT_SESSION_VERSION) return;
  const shown = typeof version === "number" ? String(version) : JSON.stringify(version);
  throw new ImportError({
    code: "unsupported_version",
    file,
    line,
    field: "version",
    message: `${file}:${line}: unsupported session version ${shown} (Arbor reads versions 1 to ${CURRENT_SESSION_VERSION}); nothing was imported`,
  });
}
