/**
 * Session files that are ONE JSON document rather than JSONL: Gemini CLI chat recordings and
 * opencode exports (docs/formats.md). Which format a document is, from its top-level shape, never
 * from the file name; where a document that does not parse goes wrong; and its mapping.
 * Pure: no network, disk or database access.
 *
 * - Gemini CLI: `{ sessionId, projectHash, startTime, lastUpdated, messages[] }` (gemini-map.ts).
 *   Its 0.39+ JSONL recordings start with the same metadata as a record of its own and are
 *   folded into this document first (gemini-records.ts).
 * - opencode: `{ info: { id, version, title, time, parentID }, messages: [{ info, parts }] }`
 *   (opencode-map.ts).
 * A document is read whole, so its size is capped (MAX_DOCUMENT_BYTES): real ones are a few MB.
 */
import { type ParseError, parse, printParseErrorCode } from "jsonc-parser";
import { isGeminiConversation, mapGeminiConversation } from "./gemini-map";
import { isOpencodeExport, mapOpencodeExport } from "./opencode-map";
import type { DocumentFormatId, JsonObject, MappedDocument } from "./types";

/** The largest single-document session file read (Gemini CLI and opencode files are a few MB). */
export const MAX_DOCUMENT_BYTES = 64 * 1024 * 1024;

/** How a document format is named in messages. */
export const DOCUMENT_NAMES: Record<DocumentFormatId, string> = { gemini: "Gemini CLI session", opencode: "opencode export" };

/** The format of a parsed JSON document, or null when it has neither shape. */
export function documentFormatOf(value: unknown): DocumentFormatId | null {
  if (isGeminiConversation(value)) return "gemini";
  if (isOpencodeExport(value)) return "opencode";
  return null;
}

/**
 * The format a document that does not parse was meant to be, from its first characters (so that
 * a broken Gemini or opencode file gets a located JSON error instead of "not a session file").
 */
export function sniffDocumentFormat(head: string): DocumentFormatId | null {
  const start = head.slice(0, 4096);
  if (!/^\s*\{/.test(start)) return null;
  if (/"sessionId"\s*:/.test(start) && /"projectHash"\s*:/.test(start)) return "gemini";
  if (/^\s*\{\s*"info"\s*:\s*\{/.test(start)) return "opencode";
  return null;
}

/**
 * Maps a document. `holdLast` leaves its last message out: a folder sync does so while the file
 * changed moments ago, as that message may still be being written (docs/formats.md "Sync").
 */
export function mapDocument(format: DocumentFormatId, value: JsonObject, opts: { holdLast?: boolean } = {}): MappedDocument {
  const doc = opts.holdLast && Array.isArray(value.messages) ? { ...value, messages: value.messages.slice(0, -1) } : value;
  return format === "gemini" ? mapGeminiConversation(doc) : mapOpencodeExport(doc);
}

/** Messages in a document (0 when it has no `messages` list). */
export function messageCount(value: JsonObject): number {
  return Array.isArray(value.messages) ? value.messages.length : 0;
}

export interface JsonErrorLocation {
  /** 1-based line and column (characters) in `text`. */
  line: number;
  column: number;
  /** What is wrong there, in words. */
  reason: string;
  /** True when the text ended before the document did (a file cut off). */
  cutOff: boolean;
}

/** jsonc-parser's error names (its codes are a const enum) → words. */
const REASONS: Record<string, string> = {
  InvalidSymbol: "an unexpected character",
  InvalidNumberFormat: "a malformed number",
  PropertyNameExpected: "a property name was expected",
  ValueExpected: "a value was expected",
  ColonExpected: "a colon was expected",
  CommaExpected: "a comma was expected",
  CloseBraceExpected: "a closing brace was expected",
  CloseBracketExpected: "a closing bracket was expected",
  EndOfFileExpected: "more text after the end of the document",
  InvalidCommentToken: "a comment, which JSON does not allow",
  UnexpectedEndOfComment: "an unfinished comment",
  UnexpectedEndOfString: "an unfinished string",
  UnexpectedEndOfNumber: "an unfinished number",
  InvalidUnicode: "a malformed \\u escape",
  InvalidEscapeCharacter: "a malformed escape",
  InvalidCharacter: "a control character inside a string",
};

/**
 * Where `text`, which JSON.parse refused, first goes wrong. JSON.parse's own message does not
 * always say where (V8 names a position for some errors only), so the text is scanned again
 * with a strict JSON scanner (jsonc-parser, comments and trailing commas disallowed).
 */
export function locateJsonError(text: string, error: unknown): JsonErrorLocation {
  const errors: ParseError[] = [];
  parse(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const first = errors[0];
  const offset = first ? first.offset : text.trimEnd().length;
  const name = first ? printParseErrorCode(first.error) : undefined;
  const reason = name ? (REASONS[name] ?? name) : error instanceof Error ? error.message : String(error);
  // The scanner stopped at the end of the text: the document was cut off (a file still being written).
  const cutOff = offset >= text.trimEnd().length || name === "UnexpectedEndOfString";
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) {
    line += 1;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1, reason, cutOff };
}
