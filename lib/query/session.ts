/** Query options for one session's data (metadata + all entries), the client's source of truth. */
import { queryOptions } from "@tanstack/react-query";
import type { SessionMeta } from "@/lib/db/session-rows";
import type { SessionEntry } from "@/lib/session/types";
import { keys } from "./keys";

export interface SessionData {
  session: SessionMeta;
  entries: SessionEntry[];
}

export function sessionDataOptions(id: string) {
  return queryOptions({
    queryKey: keys.session(id),
    queryFn: async (): Promise<SessionData> => {
      const res = await fetch(`/api/sessions/${encodeURIComponent(id)}/tree`, { headers: { accept: "application/json" } });
      if (!res.ok) {
        const body = (await res.json().catch(() => ({}))) as { error?: string };
        throw new Error(body.error ?? `${res.status} ${res.statusText}`);
      }
      return (await res.json()) as SessionData;
    },
    staleTime: 5_000,
  });
}
