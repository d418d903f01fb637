/**
 * The NDJSON events of `POST /api/import`, one JSON object a line, shared by the route
 * (app/api/import/route.ts), the browser and tests (browser-safe, types only). Order: `progress`* then exactly one `done` or `error`.
 */
import type { FormatId } from "@/lib/formats/types";
import type { KeptRecords } from "@/lib/import-report";

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
   * Entries whose strings over 500,000 characters were cut before storing (session-engine.md §1.9): the
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
  /** A Claude Code or Codex file's records kept as custom entries (not shown by default), per kind. */
  kept: KeptRecords[];
  /** What was repaired on the way in, nothing lost (two objects on one line both read, a uuid used twice renamed, …): the first 1000; `repairCount` counts all. */
  repairs: { line: number; message: string }[];
  repairCount: number;
  /**
   * Sessions of their own the file held (Claude Code sidechain runs): imported with it, or
   * `existing` when an earlier import of the same file (as a copy) already brought them in, so
   * the file's Task links lead there and nothing is imported twice.
   */
  sidechains: { sessionId: string; title: string | null; entryCount: number; existing?: true }[];
}

/**
 * Why an import failed: the one set of codes, used by the store's ImportError (lib/db/errors.ts),
 * sent as they are in the route's `error` event, and read by the browser and the CLI.
 * - `exists`: the file's session id is already stored; re-POST with `asCopy=1` to keep both.
 * - `not_session`: the file does not start with a session header (or is not text).
 * - `invalid_entry`, `duplicate_id`: an entry is malformed (no type / id) or reuses an id.
 * - `unsupported_version`: the file's session version is one Arbor cannot read.
 * - `too_large`, `line_too_long`, `too_many_blank_lines`, `too_many_skipped_lines`, `too_slow`:
 *   an import limit (lib/import-limits.ts) was exceeded.
 * - `cancelled`, `read_failed`: the upload was cancelled, or reading it failed.
 * - `unavailable`: the database was lost during the import.
 * - `failed`: anything else (a bug on the server, or an HTTP failure seen by the browser).
 * Every failure saves nothing.
 */
export type ImportErrorCode =
  | "exists"
  | "not_session"
  | "invalid_entry"
  | "duplicate_id"
  | "unsupported_version"
  | "too_large"
  | "line_too_long"
  | "too_many_blank_lines"
  | "too_many_skipped_lines"
  | "too_slow"
  | "cancelled"
  | "read_failed"
  | "unavailable"
  | "failed";

export interface ImportErrorEvent {
  type: "error";
  code: ImportErrorCode;
  /** Plain words naming the file and, when known, the line: "a.jsonl:12: entry has no type (field type)". */
  message: string;
  /** For `exists`: the session already stored under this id. */
  existingSessionId?: string;
}

export type ImportEvent = ImportProgressEvent | ImportDoneEvent | ImportErrorEvent;
