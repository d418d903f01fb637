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
  sessionList: (query: string, sort: "activity" | "cost" = "activity", filter: ListFilter = {}) => {
    const key: string[] = sort === "cost" ? ["sessions", "list", query, "cost"] : ["sessions", "list", query];
    const named = filterParams(filter).toString();
    return (named ? [...key, named] : key) as readonly string[];
  },
  sessionFacets: () => ["sessions", "facets"] as const,
  session: (id: string) => ["session", id] as const,
};

/**
 * The list's filters as GET /api/sessions takes them: `agent` (a format id), `project` (a cwd,
 * "" for none), `model`, and last activity `from` (inclusive) / `before` (exclusive), ISO dates.
 */
export interface ListFilter {
  agent?: string;
  project?: string;
  model?: string;
  from?: string;
  before?: string;
}

export function filterParams(filter: ListFilter): URLSearchParams {
  const params = new URLSearchParams();
  for (const k of ["agent", "project", "model", "from", "before"] as const) {
    const v = filter[k];
    if (v !== undefined) params.set(k, v);
  }
  return params;
}

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
export function sessionPageUrl(query: string, cursor: string | null, limit = SESSION_PAGE_SIZE, sort: "activity" | "cost" = "activity", filter: ListFilter = {}): string {
  const params = filterParams(filter);
  params.set("limit", String(limit));
  if (query) params.set("q", query);
  if (sort === "cost") params.set("sort", "cost");
  if (cursor) params.set("cursor", cursor);
  return `/api/sessions?${params}`;
}

/**
 * The home page's list for a search (`""` = all sessions): pages chained by opaque cursors;
 * `sort: "cost"` pages costliest first on the server (the list without search words).
 */
export function sessionListOptions(query = "", sort: "activity" | "cost" = "activity", filter: ListFilter = {}) {
  const q = query.trim();
  return infiniteQueryOptions({
    queryKey: keys.sessionList(q, sort, filter),
    queryFn: ({ pageParam, signal }) => getJson<SessionPage>(sessionPageUrl(q, pageParam, undefined, sort, filter), { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
}
