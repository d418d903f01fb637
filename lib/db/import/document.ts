import "server-only";
/**
 * The whole-document step in front of the line formats (import-formats.ts): Gemini CLI chat
 * recordings and opencode exports are ONE JSON document, usually pretty-printed over many lines,
 * told apart by their top-level shape (lib/formats/document.ts), never by the file name.
 *
 * Contract of `readDocument(source, file, { widen })`, given the file's lines:
 * - A first line `{` alone (pretty-printed JSON), or a `{` line that does not parse but starts
 *   like a Gemini CLI or opencode document: the file is read whole — at most MAX_DOCUMENT_BYTES,
 *   else LimitError "too_large"; `widen()` lifts the header-scan line limit first, since a
 *   document's lines may be long — and parsed. A Gemini CLI or opencode document is mapped, and
 *   its header and entries come back as JSON lines (`detected`) for the importer, whose checks,
 *   limits and batching then apply as for any file. A Gemini- or opencode-looking document that
 *   is not valid JSON fails "file:line:column: … is not valid JSON (why)" (and says when the file
 *   ends before the document does); nothing is imported. Another JSON document is "not a
 *   session file", saying which shapes were looked for. Text that is no JSON document at all is
 *   handed on (`lines`) with the lines read so far, for the line formats to report as before.
 * - A first line that is a whole Gemini CLI or opencode document: the same, from that line.
 * - A first line that is Gemini CLI 0.39+'s JSONL metadata record: every record is read
 *   (bounded as above) and folded into the conversation (lib/formats/gemini-records.ts); lines
 *   that are not records (a last line still being written) are skipped and reported as in any
 *   JSONL file.
 * - Anything else: handed on untouched (`lines`).
 * `holdLast` maps the document without its last message (a folder sync of a file written moments
 * ago: that message may still grow); the original is kept whole all the same.
 * A message the adapter cannot map fails with ImportError "invalid_entry" naming it
 * ("file: messages[3]: …"). The mapped entries are held in memory, bounded by the document.
 */
import { DOCUMENT_NAMES, documentFormatOf, locateJsonError, MAX_DOCUMENT_BYTES, mapDocument, sniffDocumentFormat } from "@/lib/formats/document";
import { GeminiRecordFolder, isGeminiMetadataRecord } from "@/lib/formats/gemini-records";
import { type DocumentFormatId, FormatError, type JsonObject, type MappedDocument } from "@/lib/formats/types";
import { parseJsonlLine } from "@/lib/session/file/jsonl";
import { formatBytes } from "@/lib/text/byte-size";
import { ImportError, LimitError } from "../errors";
import type { DetectedLines } from "./formats";
import type { Lines } from "./parse";
import type { Line } from "./line-reader";

export type DocumentStep = { detected: DetectedLines } | { lines: Lines };

async function* replay(ahead: Line[], rest: Lines, failure?: unknown): Lines {
  yield* ahead;
  if (failure !== undefined) throw failure;
  yield* rest;
}

function tooLarge(file: string, format: DocumentFormatId, limit: number): LimitError {
  return new LimitError({
    code: "too_large",
    file,
    limit,
    message: `${file}: a ${DOCUMENT_NAMES[format]} is read whole, and this one is larger than the ${formatBytes(limit)} limit for such files; nothing was imported`,
  });
}

/** The mapped document as the importer's lines: the header, then one entry a line. */
interface Ctx {
  file: string;
  limit: number;
  holdLast: boolean;
}

function asDetected(ctx: Ctx, format: DocumentFormatId, value: JsonObject, line: number, skipped: Line[] = []): DetectedLines {
  const { file } = ctx;
  let mapped: MappedDocument;
  try {
    mapped = mapDocument(format, value, { holdLast: ctx.holdLast });
  } catch (error) {
    if (!(error instanceof FormatError)) throw error;
    throw new ImportError({
      code: "invalid_entry",
      file,
      ...(error.field ? { field: error.field } : {}),
      message: `${file}: ${error.what}${error.field ? ` (field ${error.field})` : ""}; nothing was imported`,
    });
  }
  async function* lines(): Lines {
    yield { text: JSON.stringify(mapped.header), number: line };
    // Lines that are not records, for the importer to skip and report as in any JSONL file.
    yield* skipped;
    for (const entry of mapped.entries) yield { text: JSON.stringify(entry), number: line };
  }
  return { format, lines: lines(), records: () => mapped.records, sidechains: () => [], notes: () => [] };
}

/** The first few KB of the lines, enough to tell what a document was meant to be. */
function headOf(lines: Line[]): string {
  let head = "";
  for (const l of lines) {
    head += `${l.text}\n`;
    if (head.length >= 4096) break;
  }
  return head;
}

/** Reads the rest of a document (its first line already read), stopping past `limit` bytes. */
async function readAll(first: Line, source: Lines, limit: number): Promise<{ lines: Line[]; complete: boolean }> {
  const lines = [first];
  let bytes = Buffer.byteLength(first.text);
  for (let next = await source.next(); !next.done; next = await source.next()) {
    bytes += Buffer.byteLength(next.value.text) + 1;
    lines.push(next.value);
    if (bytes > limit) return { lines, complete: false };
  }
  return { lines, complete: true };
}

async function wholeDocument(first: Line, source: Lines, ctx: Ctx): Promise<DocumentStep> {
  const { file, limit } = ctx;
  const { lines, complete } = await readAll(first, source, limit);
  if (!complete) {
    const meant = sniffDocumentFormat(headOf(lines));
    if (meant) throw tooLarge(file, meant, limit);
    return { lines: replay(lines, source) };
  }
  const text = lines.map((l) => l.text).join("\n");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const meant = sniffDocumentFormat(text);
    if (!meant) return { lines: replay(lines, source) };
    const at = locateJsonError(text, error);
    const line = lines[at.line - 1]?.number ?? first.number;
    const cut = at.cutOff ? "; the file ends before the document does: was it cut off?" : "";
    throw new ImportError({
      code: "invalid_entry",
      file,
      line,
      message: `${file}:${line}:${at.column}: the ${DOCUMENT_NAMES[meant]} is not valid JSON (${at.reason})${cut}; nothing was imported`,
    });
  }
  const format = documentFormatOf(value);
  if (format) return { detected: asDetected(ctx, format, value as JsonObject, first.number) };
  throw new ImportError({
    code: "not_session",
    file,
    message: `${file}: not a session file (a JSON document, but neither a Gemini CLI session — sessionId, projectHash, messages — nor an opencode export — info, messages)`,
  });
}

/** Gemini CLI 0.39+ JSONL: every record folded into one conversation. */
async function geminiRecords(first: Line, metadata: JsonObject, source: Lines, ctx: Ctx): Promise<DocumentStep> {
  const { file, limit } = ctx;
  const folder = new GeminiRecordFolder();
  folder.push(metadata);
  const skipped: Line[] = [];
  let bytes = Buffer.byteLength(first.text);
  for (let next = await source.next(); !next.done; next = await source.next()) {
    const line = next.value;
    bytes += Buffer.byteLength(line.text) + 1;
    if (bytes > limit) throw tooLarge(file, "gemini", limit);
    const { value, skip } = parseJsonlLine(line.text, line.number);
    if (skip) skipped.push(line);
    if (value) folder.push(value);
  }
  const detected = asDetected(ctx, "gemini", folder.conversation(), first.number, skipped);
  return { detected: { ...detected, records: () => folder.records } };
}

export async function readDocument(source: Lines, file: string, opts: { widen: () => void; maxBytes?: number; holdLast?: boolean }): Promise<DocumentStep> {
  const ctx: Ctx = { file, limit: opts.maxBytes ?? MAX_DOCUMENT_BYTES, holdLast: opts.holdLast ?? false };
  let next: IteratorResult<Line>;
  try {
    next = await source.next();
  } catch (error) {
    return { lines: replay([], source, error) };
  }
  if (next.done) return { lines: replay([], source) };
  const first = next.value;
  const start = first.text.trim();
  if (!start.startsWith("{")) return { lines: replay([first], source) };
  const { value } = parseJsonlLine(first.text, first.number);
  if (value) {
    if (isGeminiMetadataRecord(value)) {
      opts.widen();
      return geminiRecords(first, value, source, ctx);
    }
    if (documentFormatOf(value) === null) return { lines: replay([first], source) };
  } else if (start !== "{" && !sniffDocumentFormat(start)) {
    return { lines: replay([first], source) };
  }
  opts.widen();
  return wholeDocument(first, source, ctx);
}
