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

export function mapDocument(format: DocumentFormatId, value: JsonObject): MappedDocument {
  return format === "gemini" ? mapGeminiConversation(value) : mapOpencodeExport(value);
}

export interface JsonErrorLocation {
  /** 1-based line and column (characters) in `text`. */
  line: number;
  column: number;
  /** The parser's reason, without its position. */
  reason: string;
  /** True when the text ended before the document did (a file cut off). */
  cutOff: boolean;
}

/** Where JSON.parse(text) failed, from the parser's error. */
export function locateJsonError(text: string, error: unknown): JsonErrorLocation {
  const message = error instanceof Error ? error.message : String(error);
  const at = /at position (\d+)/.exec(message);
  const lineCol = /\(line (\d+) column (\d+)\)/.exec(message);
  const reason = message.replace(/\s*in JSON at position \d+.*$/s, "").replace(/\s*\(line \d+ column \d+\)/, "");
  if (lineCol) return { line: Number(lineCol[1]), column: Number(lineCol[2]), reason, cutOff: false };
  const position = at ? Math.min(Number(at[1]), text.length) : text.trimEnd().length;
  // The parser stopped at the end of the text: the document was cut off (a file still being written).
  const cutOff = !at || position >= text.trimEnd().length || /end of (JSON|data) input|Unterminated string/i.test(message);
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < position; i = text.indexOf("\n", i + 1)) {
    line += 1;
    lineStart = i + 1;
  }
  return { line, column: position - lineStart + 1, reason, cutOff };
}
