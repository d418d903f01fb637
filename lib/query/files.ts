/**
 * TanStack Query key, queryOptions and URLs of a session's workspace files (conventions rule 7).
 *
 * The key lives under `keys.session(id)` (["session", id, "files"]), so whatever invalidates a
 * session's data after a turn (use-session-chat's onFinish), a compaction or a navigation also
 * refreshes the Files panel: a turn that wrote or edited files shows them without a manual
 * Refresh. Data comes from GET /api/sessions/[id]/files.
 */
import { queryOptions } from "@tanstack/react-query";
import type { WorkspaceFilesBody } from "@/lib/types/workspace-files";
import { getJson, keys } from "./keys";

export const filesKeys = {
  list: (sessionId: string) => [...keys.session(sessionId), "files"] as const,
};

const base = (sessionId: string) => `/api/sessions/${encodeURIComponent(sessionId)}/files`;

/** POST target of one upload (raw body) to `path` in the workspace. */
export function uploadUrl(sessionId: string, path: string): string {
  return `${base(sessionId)}?${new URLSearchParams({ path })}`;
}

/** GET URL that downloads `path` as an attachment. */
export function downloadUrl(sessionId: string, path: string): string {
  return `${base(sessionId)}/download?${new URLSearchParams({ path })}`;
}

export function workspaceFilesOptions(sessionId: string) {
  return queryOptions({
    queryKey: filesKeys.list(sessionId),
    queryFn: ({ signal }) => getJson<WorkspaceFilesBody>(base(sessionId), { signal }),
  });
}
