/**
 * The secrets found in a session (docs/secrets.md), for the session page's count and list, the
 * exports' confirmations and the inspector's masked copy. Under `keys.session(id)`, so a turn,
 * a compaction or a navigation (which may add entries with secrets) refreshes it. Loaded on
 * demand, not with the page: GET /api/sessions/[id]/secrets.
 */
import { queryOptions } from "@tanstack/react-query";
import type { SessionSecrets } from "@/lib/secrets/types";
import { getJson, keys } from "./keys";

export const secretKeys = {
  session: (sessionId: string) => [...keys.session(sessionId), "secrets"] as const,
};

export function secretsOptions(sessionId: string) {
  return queryOptions({
    queryKey: secretKeys.session(sessionId),
    queryFn: ({ signal }) => getJson<SessionSecrets>(`/api/sessions/${encodeURIComponent(sessionId)}/secrets`, { signal }),
  });
}
