/**
 * Import limits shared by the server (lib/db/import/import.ts) and the browser (which checks a file's
 * size before uploading, because an early 413 reaches a browser as a dropped connection).
 * Every byte counts toward the size limit, blank lines included.
 */
export const DEFAULT_MAX_IMPORT_BYTES = 256 * 1024 * 1024;
/**
 * Blank (empty or whitespace-only) lines one file may hold. Real session files have none, or
 * one between entries at most; a file of newlines is refused at this count, not read to the end.
 */
export const DEFAULT_MAX_BLANK_LINES = 100_000;
/** Lines that are not a JSON object (skipped and reported) one file may hold before it is refused. */
export const DEFAULT_MAX_SKIPPED_LINES = 10_000;
/** Wall-clock budget of one import, upload included; past it the import stops and saves nothing. */
export const DEFAULT_IMPORT_TIME_BUDGET_MS = 5 * 60 * 1000;
/** Entries cut by the 500,000-character limit (session-engine.md §1.9) that a result lists (all are counted). */
export const MAX_REPORTED_TRUNCATIONS = 20;
