/** TanStack Query keys and queryOptions factories (conventions rule 7). */
import { infiniteQueryOptions, type QueryClient, type QueryKey } from "@tanstack/react-query";
import type { SessionPage } from "@/lib/types/session";
import { readErrorMessage } from "@/lib/text/error-text";

/**
 * Every key starts with its family, so `invalidateQueries({ queryKey: keys.sessions() })` refreshes
 * every list page of every search, and `keys.session(id)` one session's data.
 */
export const keys = {
  sessions: () => ["sessions"] as const,
  sessionLists: () => ["sessions", "list"] as const,
  sessionList: (query: string, sort: "activity" | "cost" = "activity") =>
    (sort === "cost" ? ["sessions", "list", query, "cost"] : ["sessions", "list", query]) as readonly string[],
  session: (id: string) => ["session", id] as const,
};

/**
 * Whether a query of a session's data can never change: the message pages of a recorded model
 * call (["session", id, "inspector", "turn", "call", callId, "messages", …]; a recorded call's
 * list is stored as it was sent). Refreshing them after every turn would re-read each loaded
 * page of a long turn for nothing.
 */
function neverChanges(key: QueryKey): boolean {
  return key[2] === "inspector" && key[3] === "turn" && key[4] === "call" && key[6] === "messages";
}

/** Marks a session's data stale (refetching what is on screen) after a turn, compaction, navigation or edit. */
export function invalidateSession(qc: QueryClient, sessionId: string): Promise<void> {
  return qc.invalidateQueries({ queryKey: keys.session(sessionId), predicate: (q) => !neverChanges(q.queryKey) });
}

/** Page size of the home page's list: enough to fill a tall screen, small enough to render fast. */
export const SESSION_PAGE_SIZE = 50;

export async function getJson<T>(url: string, init?: { signal?: AbortSignal }): Promise<T> {
  const res = await fetch(url, { headers: { accept: "application/json" }, signal: init?.signal });
  if (!res.ok) throw new Error(await readErrorMessage(res));
  return (await res.json()) as T;
}

/** The URL of one page of the list; the search words go to the server (full-text search). */
export function sessionPageUrl(query: string, cursor: string | null, limit = SESSION_PAGE_SIZE, sort: "activity" | "cost" = "activity"): string {
  const params = new URLSearchParams({ limit: String(limit) });
  if (query) params.set("q", query);
  if (sort === "cost") params.set("sort", "cost");
  if (cursor) params.set("cursor", cursor);
  return `/api/sessions?${params}`;
}

/**
 * The home page's list for a search (`""` = all sessions): pages chained by opaque cursors;
 * `sort: "cost"` pages costliest first on the server (the list without search words).
 */
export function sessionListOptions(query = "", sort: "activity" | "cost" = "activity") {
  const q = query.trim();
  return infiniteQueryOptions({
    queryKey: keys.sessionList(q, sort),
    queryFn: ({ pageParam, signal }) => getJson<SessionPage>(sessionPageUrl(q, pageParam, undefined, sort), { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
}
