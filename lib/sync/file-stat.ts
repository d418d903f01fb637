/**
 * What a sync knows of a file without reading it (docs/formats.md "Sync"): its size and mtime
 * (for an opencode storage session, its files' total and newest) and, for a session spread over
 * many files, a digest of every file's name, size and mtime (opencode-storage.ts).
 *
 * A file whose stat is the one stored when it was last read is taken as unchanged and not read.
 * This assumes a change moves the mtime (or the size): a rewrite that keeps both (a tool that
 * sets the mtime back; a same-size rewrite within one tick of a file system with coarse mtimes)
 * is seen on the file's next change, not before.
 */
import type { TrackedFile } from "@/lib/db";

export interface FileStat {
  size: number;
  mtimeMs: number;
  /** Set for a session of many files (opencode's storage). */
  digest?: string;
}

/** Whether `st` is what `tracked` stored when the file was last read: then it is not read again. */
export function sameStat(tracked: TrackedFile, st: FileStat): boolean {
  return tracked.size === st.size && tracked.mtimeMs === st.mtimeMs && tracked.statDigest === (st.digest ?? null);
}
