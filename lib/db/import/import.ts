import "server-only";
/**
 * Importing a session file into the store: pi / oh-my-pi JSONL (versions 1–3), a Claude Code or
 * Codex CLI file, or a Gemini CLI / opencode JSON document, told apart by content
 * (import-document.ts and import-formats.ts map those to entries first).
 *
 * Contract:
 * - The file's bytes are kept as they are (source-capture.ts: spilled to a temp file while the
 *   entries stream, written in the same transaction after them) for "Download original"; the result names the format and its record count.
 * - Streams the source line by line (LineReader): memory is bounded by the batch, not the file.
 *   Each line is parsed leniently (session-engine.md §1.8): blank lines are ignored, lines that are not a JSON
 *   object are skipped and reported as `{ line, reason }`. Entries are migrated on the fly
 *   (createStreamMigrator, session-engine.md §1.7) and streamed to the server through ONE binary COPY
 *   (entry-load.ts), handed over (and progress reported) every `batchSize` entries or ~8 MB.
 * - Everything happens in ONE transaction (on a dedicated connection: withBulkTransaction): any
 *   error, or an abort through `signal`, rolls it back and leaves no session and no entries.
 *   Errors are ImportError / LimitError with a message that names the file (and line / field
 *   when known).
 * - The first JSON object must be a session header, else "not a session file" (with the reason:
 *   binary or gzip data, a cut-off header line). Its `version` must be 1–3 (absent = 1), else
 *   "unsupported session version N" (parse.ts checkVersion). Every later
 *   object must have a string `type`; files of version 2+ must give each entry a string `id`,
 *   unique in the file.
 * - A session id that is already stored fails with code "exists" unless `asCopy`: a copy gets
 *   a new session id (header.id too) and keeps its entry ids.
 * - Limits (lib/import-limits.ts, each overridable in ImportOptions): bytes (every byte counts),
 *   line length, blank lines, skipped lines, and an overall time budget (`timeBudgetMs`, upload
 *   included: a stalled source is stopped too). Past any of them: LimitError, nothing saved.
 * - Strings over 500,000 characters are cut before they are stored (session-engine.md §1.9); the result
 *   lists the entries cut (`truncated`, `truncatedCount`) so the user learns of it.
 * - Leaf: the header's `arborLeafId` (written by our export when the leaf is not the last
 *   entry) if it names an entry, else the last entry in file order (session-engine.md §1.6). The field is
 *   not kept in the stored header.
 * - The session commits fully indexed for search: its full-text rows (entry_search) are computed
 *   while the entries stream and written in the same transaction (search-rows.ts).
 * - Every entry is scanned for secrets as it streams (lib/secrets; docs/secrets.md), and what is
 *   found is written in the same transaction (secret-findings.ts).
 * - Title: `title` > header title > pi session name > first user message (session-engine.md §1.2).
 *   Activity time: the newest entry timestamp; creation time: the header timestamp.
 */
import { stat } from "node:fs/promises";
import path from "node:path";
import { generateSessionId } from "@/lib/session/file/ids";
import type { SkippedLine, } from "@/lib/session/file/jsonl";
import { createStreamMigrator, } from "@/lib/session/file/migrate-stream";
import { DATABASE_UNAVAILABLE_MESSAGE, ImportError, isDatabaseUnavailable, LimitError, SessionExistsError } from "../errors";
import {
  checkVersion,
  HEADER_SCAN_BYTES,
  ImportState,
  type Lines,
  readHeader,
  type TruncatedEntry,
} from "./parse";
import { timeBudget } from "./budget";
import { LineReader } from "./line-reader";
import { toPgText } from "../pg-json";
import { normalizeTitle } from "../store/session-rows";
import {
  DEFAULT_IMPORT_TIME_BUDGET_MS,
  DEFAULT_MAX_BLANK_LINES,
  DEFAULT_MAX_IMPORT_BYTES,
  DEFAULT_MAX_SKIPPED_LINES,
} from "@/lib/import-limits";
import { findSessionMeta } from "../store/read";
import { withBulkTransaction } from "../store/sql";
import type { FormatId } from "@/lib/formats/types";
import type { KeptRecords } from "@/lib/import-report";
import { readDocument } from "./document";
import { detectLines } from "./formats";
import { SourceCapture } from "./source-capture";
import { formatBytes } from "@/lib/text/byte-size";
import { errorText } from "@/lib/text/error-text";
import type { Plan } from "./entry-step";
import type { ImportOptions } from "./options";
import { type ImportedSidechain, recordsOf, writeFile } from "./write-session";

export type { ImportedSidechain } from "./write-session";

export { DEFAULT_IMPORT_TIME_BUDGET_MS, DEFAULT_MAX_BLANK_LINES, DEFAULT_MAX_IMPORT_BYTES, DEFAULT_MAX_SKIPPED_LINES };
export type { TruncatedEntry };
export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;
export const DEFAULT_IMPORT_BATCH = 1000;
/** A batch is also flushed once its entries reach about this many bytes of JSON. */

export type { ImportOptions, ImportProgress } from "./options";

export interface ImportResult {
  sessionId: string;
  title: string | null;
  entryCount: number;
  leafId: string | null;
  /** Skipped lines (at most 1000 listed; `skippedCount` counts all). */
  skipped: SkippedLine[];
  skippedCount: number;
  /** Entries whose long strings were cut to 500,000 characters (first 20; `truncatedCount` counts all). */
  truncated: TruncatedEntry[];
  truncatedCount: number;
  /** True when the file was an older version and was migrated to v3. */
  migrated: boolean;
  fromVersion: number;
  bytes: number;
  /** The format detected from the content (lib/formats). */
  format: FormatId;
  /** JSON records in the file (the header and entries of a pi file). */
  records: number;
  /** Sessions of their own the file held, imported with it (Claude Code sidechain runs; docs/formats.md "Subagents"). */
  sidechains: ImportedSidechain[];
  /** A Claude Code or Codex file's records kept as custom entries, per kind, most first (none for pi files). */
  kept: KeptRecords[];
  /**
   * What was repaired on the way in, nothing lost (two objects on one line both read, a uuid
   * used twice renamed, a parent not in the file, a Codex call without an output answered), by
   * line: the first 1000; `repairCount` counts all.
   */
  repairs: { line: number; message: string }[];
  repairCount: number;
  /**
   * Entries no later line of the file can change (formats.ts DetectedLines.settled): a Claude
   * Code or Codex file's response that only the file's end closed is not among them; all
   * entries of a pi file or a document.
   */
  settledEntries: number;
  /** The sha256 (hex) of the original file as kept for "Download original" (session_sources). */
  sourceSha256?: string;
}


/** Checks a file path's size before reading it: a too-large file fails at once. */
async function sizeOfPath(file: string, source: string, maxBytes: number): Promise<number> {
  const size = await stat(source).then(
    (s) => s.size,
    (error: Error) => {
      throw new ImportError({ code: "read_failed", file, message: `${file}: cannot read the file (${error.message})`, cause: error });
    },
  );
  if (size > maxBytes) {
    throw new LimitError({ code: "too_large", file, limit: maxBytes, message: `${file}: file is larger than the ${formatBytes(maxBytes)} import limit` });
  }
  return size;
}

export async function importSession(opts: ImportOptions): Promise<ImportResult> {
  const file = opts.fileName ?? (typeof opts.source === "string" ? path.basename(opts.source) : "session.jsonl");
  const budget = timeBudget(file, opts.timeBudgetMs ?? DEFAULT_IMPORT_TIME_BUDGET_MS, opts.signal);
  try {
    return await importWithin({ ...opts, signal: budget.signal }, file, opts.signal);
  } finally {
    budget.stop();
  }
}

async function importWithin(opts: ImportOptions & { signal: AbortSignal }, file: string, callerSignal: AbortSignal | undefined): Promise<ImportResult> {
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_IMPORT_BYTES;
  const totalBytes = typeof opts.source === "string" ? await sizeOfPath(file, opts.source, maxBytes) : opts.totalBytes;
  const maxLineLength = opts.maxLineLength ?? DEFAULT_MAX_LINE_BYTES;
  const capture = new SourceCapture(opts.source);
  const reader = new LineReader({
    source: capture.source,
    file,
    maxBytes,
    maxLineLength,
    // Until the format and header are known, a line that does not start with "{" is not read
    // past this (a binary file fails fast); a large first record still is (docs/formats.md).
    maxOpaqueLineLength: HEADER_SCAN_BYTES,
    maxBlankLines: opts.maxBlankLines ?? DEFAULT_MAX_BLANK_LINES,
    signal: opts.signal,
  });
  const raw = reader.lines();
  let lines: Lines = raw;
  const state = new ImportState(file, opts.maxSkippedLines ?? DEFAULT_MAX_SKIPPED_LINES);
  try {
    // Gemini CLI and opencode files are one JSON document: read whole, before the line formats.
    const doc = await readDocument(raw, file, {
      widen: () => {
        reader.maxLineLength = maxLineLength;
      },
      holdLast: opts.holdLastMessage ?? false,
    });
    const detected = "detected" in doc ? doc.detected : await detectLines(doc.lines, file);
    lines = detected.lines;
    const { header: fileHeader, line: headerLine } = await readHeader(lines, reader, file, state, detected.tried);
    checkVersion(file, headerLine, fileHeader);
    reader.maxOpaqueLineLength = undefined;
    const migrator = createStreamMigrator(fileHeader);
    const { arborLeafId, ...header } = migrator.header;
    const sessionId = opts.asCopy ? generateSessionId() : toPgText(header.id);
    if (!opts.asCopy) await refuseExisting(file, sessionId);
    const givenTitle = normalizeTitle(opts.title);
    const plan: Plan = {
      file,
      migrator,
      arborLeafId,
      batchSize: Math.max(1, opts.batchSize ?? DEFAULT_IMPORT_BATCH),
      opts: { ...opts, ...(totalBytes ? { totalBytes } : {}) },
      detected,
      capture,
      secrets: [],
    };
    const result = await withBulkTransaction((sql) =>
      writeFile(sql, { plan, state, lines, reader, header, sessionId, ...(givenTitle ? { givenTitle } : {}) }),
    );
    for (const note of detected.notes()) state.repair(note);
    state.repairs.sort((a, b) => a.line - b.line);
    return {
      sessionId,
      title: result.title,
      entryCount: state.count,
      leafId: result.leafId,
      skipped: state.skipped,
      skippedCount: state.skippedCount,
      truncated: state.truncated,
      truncatedCount: state.truncatedCount,
      migrated: migrator.changed,
      fromVersion: migrator.fromVersion,
      bytes: reader.bytesRead,
      format: detected.format,
      records: recordsOf(plan, state),
      sidechains: result.sidechains,
      kept: detected.format === "pi" ? [] : keptRecords(state),
      repairs: state.repairs,
      repairCount: state.repairCount,
      settledEntries: detected.settled?.() ?? state.count,
      ...(capture.sha256 ? { sourceSha256: capture.sha256 } : {}),
    };
  } catch (error) {
    throw asImportError(error, file, opts.signal, callerSignal);
  } finally {
    await lines.return(undefined).catch(() => undefined);
    await raw.return(undefined).catch(() => undefined);
    await capture.dispose().catch(() => undefined);
  }
}

/** The custom entries per kind, most first ("claude-code/progress" → "progress"). */
function keptRecords(state: ImportState): KeptRecords[] {
  return [...state.kept]
    .map(([type, count]) => ({ kind: type.replace(/^[^/]*\//, ""), count }))
    .sort((a, b) => b.count - a.count || a.kind.localeCompare(b.kind));
}

async function refuseExisting(file: string, sessionId: string): Promise<void> {
  const existing = await findSessionMeta({ id: sessionId });
  if (!existing) return;
  const where = existing.deletedAt ? " (it is in the trash: restore it there)" : "";
  throw new ImportError({
    code: "exists",
    file,
    existingSessionId: sessionId,
    message: `${file}: session ${sessionId} is already imported${where}; import it as a copy to keep both`,
  });
}

function asImportError(error: unknown, file: string, signal: AbortSignal, callerSignal: AbortSignal | undefined): unknown {
  if (error instanceof ImportError) return error;
  // The budget's own reason; a database call interrupted by it may have thrown something else.
  if (signal.aborted && signal.reason instanceof ImportError && !callerSignal?.aborted) return signal.reason;
  if (signal.aborted) return new ImportError({ code: "cancelled", file, message: `${file}: import cancelled; nothing was saved`, cause: error });
  if (isDatabaseUnavailable(error)) {
    return new ImportError({ code: "unavailable", file, message: `${file}: ${DATABASE_UNAVAILABLE_MESSAGE}; nothing was saved`, cause: error });
  }
  if (error instanceof SessionExistsError) {
    return new ImportError({ code: "exists", file, message: `${file}: this session was imported meanwhile; import it as a copy to keep both`, cause: error });
  }
  const detail = errorText(error);
  return new ImportError({ code: "read_failed", file, message: `${file}: import failed: ${detail}`, cause: error });
}
