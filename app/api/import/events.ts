/**
 * The NDJSON events of `POST /api/import`, one JSON object a line, shared by the route and the
 * browser (type-only on the client). Order: `progress`* then exactly one `done` or `error`.
 */
import type { FormatId } from "@/lib/formats/types";

export interface ImportProgressEvent {
  type: "progress";
  /** Bytes of the file read by the server so far. */
  bytes: number;
  /** Entries written so far (inside the still-open transaction). */
  entries: number;
}

export interface ImportDoneEvent {
  type: "done";
  sessionId: string;
  title: string | null;
  entryCount: number;
  /** Malformed lines that were skipped (at most 1000 listed; `skippedCount` counts all). */
  skipped: { line: number; reason: string }[];
  skippedCount: number;
  /**
   * Entries whose strings over 500,000 characters were cut before storing (spec §1.9): the
   * first 20, each with its line, id, how many strings were cut and how many characters removed;
   * `truncatedCount` counts all.
   */
  truncated: { line: number; id: string; strings: number; charsRemoved: number; longest: number }[];
  truncatedCount: number;
  /** True when an older file version was migrated to the current one. */
  migrated: boolean;
  /** The format found in the content (lib/formats) and its words: "Claude Code session". */
  format: FormatId;
  formatLabel: string;
  /** JSON records in the file. */
  records: number;
}

/**
 * - `exists`: the file's session id is already stored; re-POST with `asCopy=1` to keep both.
 * - `not_a_session`: the file does not start with a session header.
 * - `limit`: the file, or one of its lines, is over the size limit; or it has too many blank
 *   or malformed lines; or the import ran past its time budget.
 * - `invalid`: an entry is malformed (no type / id, a duplicate id), or the file's session
 *   version is one Arbor cannot read ("unsupported session version 99").
 * - `failed`: anything else (read error, database error, cancelled).
 */
export type ImportErrorCode = "exists" | "not_a_session" | "limit" | "invalid" | "failed";

export interface ImportErrorEvent {
  type: "error";
  code: ImportErrorCode;
  /** Plain words naming the file and, when known, the line: "a.jsonl:12: entry has no type (field type)". */
  message: string;
  /** For `exists`: the session already stored under this id. */
  existingSessionId?: string;
}

export type ImportEvent = ImportProgressEvent | ImportDoneEvent | ImportErrorEvent;
