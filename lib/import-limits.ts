/**
 * Import limits shared by the server (lib/db/import.ts) and the browser (which checks a file's
 * size before uploading, because an early 413 reaches a browser as a dropped connection).
 */
export const DEFAULT_MAX_IMPORT_BYTES = 256 * 1024 * 1024;
