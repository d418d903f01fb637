/** What an import is asked to do and what it reports as it goes (import.ts's contract). */
import type { ByteSource } from "./line-reader";

export interface ImportProgress {
  bytes: number;
  entries: number;
  /** Total size when known (file path, or given by the caller). */
  totalBytes?: number;
}

export interface ImportOptions {
  source: ByteSource;
  /** Shown in messages and stored as the source file name (default: the path's base name). */
  fileName?: string;
  title?: string;
  asCopy?: boolean;
  maxBytes?: number;
  maxLineLength?: number;
  maxBlankLines?: number;
  maxSkippedLines?: number;
  /** Wall-clock budget of the whole import (default DEFAULT_IMPORT_TIME_BUDGET_MS). */
  timeBudgetMs?: number;
  batchSize?: number;
  totalBytes?: number;
  /** A Gemini CLI / opencode document without its last message (folder sync: it may still be written; import-document.ts). */
  holdLastMessage?: boolean;
  signal?: AbortSignal;
  /**
   * false: the session commits without its full-text rows, left to buildSearchIndex after the
   * commit (the path before search-rows.ts; the bench's A/B). Default true.
   */
  searchRows?: boolean;
  onProgress?: (p: ImportProgress) => void;
}
