/**
 * GET /api/sessions/[id]/files: the workspace tree the Files panel shows (lib/tools/files.ts
 * lists it, lib/query/files.ts reads it). Types only, browser-safe.
 */

/** What a workspace entry is (lib/tools/walk.ts reads it from the directory entry). */
export type EntryKind = "file" | "directory" | "symlink" | "other";

export interface WorkspaceNode {
  name: string;
  /** POSIX path relative to the workspace root. */
  path: string;
  kind: EntryKind;
  /** Bytes, for files. */
  size?: number;
  /** Epoch ms. */
  modifiedAt?: number;
  /** A folder that was not entered (node_modules, .git). */
  skipped?: boolean;
  /** Folders only; sorted by name. Absent for skipped folders. */
  children?: WorkspaceNode[];
}

export interface WorkspaceListing {
  /** The root's children. */
  nodes: WorkspaceNode[];
  /** Entries listed. */
  count: number;
  /** True when `maxEntries` stopped the listing. */
  truncated: boolean;
}

export interface WorkspaceFilesBody extends WorkspaceListing {
  /** The listing cap the server applied. */
  maxEntries: number;
}
