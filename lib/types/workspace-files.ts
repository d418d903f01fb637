/**
 * GET /api/sessions/[id]/files: the workspace tree the Files panel shows (lib/query/files.ts
 * reads it). Types only, browser-safe.
 */
import type { WorkspaceListing } from "@/lib/tools/files";

export interface WorkspaceFilesBody extends WorkspaceListing {
  /** The listing cap the server applied. */
  maxEntries: number;
}
