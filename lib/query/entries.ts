/**
 * Contents of single entries on demand (the light page): one TanStack query per entry,
 * `["entry", sessionId, entryId]`, deliberately outside `keys.session(id)` — the session's
 * invalidations after a turn, a label or a move refresh the skeleton, and an entry's stored
 * form only changes when it is pruned (then `invalidateEntries`).
 *
 * Queries started in the same tick are batched into one `GET …/entries?ids=` per session
 * (MAX_BATCH ids each); ids the server defers (size cap) are asked again, ids it does not know
 * fail their query. A query's abort signal is not passed on: the request serves the whole batch.
 */
import { type QueryClient, queryOptions } from "@tanstack/react-query";
import type { SessionEntry } from "@/lib/session/types";
import type { EntriesPayload } from "@/lib/types/session-page";
import { getJson } from "./keys";

/** Ids per request (the route accepts up to 200). */
const MAX_BATCH = 100;

export const entryKeys = {
  all: (sessionId: string) => ["entry", sessionId] as const,
  one: (sessionId: string, entryId: string) => ["entry", sessionId, entryId] as const,
};

type Waiter = { resolve: (e: SessionEntry) => void; reject: (e: Error) => void };
const pending = new Map<string, Map<string, Waiter[]>>();
let scheduled = false;

function flush(): void {
  scheduled = false;
  const batches = [...pending];
  pending.clear();
  for (const [sessionId, waiters] of batches) {
    const ids = [...waiters.keys()];
    for (let i = 0; i < ids.length; i += MAX_BATCH) void fetchBatch(sessionId, ids.slice(i, i + MAX_BATCH), waiters);
  }
}

async function fetchBatch(sessionId: string, ids: string[], waiters: Map<string, Waiter[]>): Promise<void> {
  try {
    const body = await getJson<EntriesPayload>(`/api/sessions/${encodeURIComponent(sessionId)}/entries?ids=${ids.map(encodeURIComponent).join(",")}`);
    for (const e of body.entries) for (const w of waiters.get(e.id) ?? []) w.resolve(e);
    for (const id of body.missing) for (const w of waiters.get(id) ?? []) w.reject(new Error(`Entry ${id} is not in this session.`));
    for (const id of body.deferred) for (const w of waiters.get(id) ?? []) enqueue(sessionId, id, w);
  } catch (error) {
    const e = error instanceof Error ? error : new Error(String(error));
    for (const id of ids) for (const w of waiters.get(id) ?? []) w.reject(e);
  }
}

function enqueue(sessionId: string, entryId: string, waiter: Waiter): void {
  let forSession = pending.get(sessionId);
  if (!forSession) {
    forSession = new Map();
    pending.set(sessionId, forSession);
  }
  const list = forSession.get(entryId);
  if (list) list.push(waiter);
  else forSession.set(entryId, [waiter]);
  if (!scheduled) {
    scheduled = true;
    setTimeout(flush, 0);
  }
}

export function loadEntry(sessionId: string, entryId: string): Promise<SessionEntry> {
  return new Promise((resolve, reject) => enqueue(sessionId, entryId, { resolve, reject }));
}

export function entryOptions(sessionId: string, entryId: string) {
  return queryOptions({
    queryKey: entryKeys.one(sessionId, entryId),
    queryFn: () => loadEntry(sessionId, entryId),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 5 * 60_000,
  });
}

/** Puts entries the client already holds (streamed, prefetched) into their queries. */
export function seedEntries(qc: QueryClient, sessionId: string, entries: readonly SessionEntry[]): void {
  for (const e of entries) qc.setQueryData(entryKeys.one(sessionId, e.id), e);
}

/** After pruning: stored entries changed in place, so cached contents are refetched when next shown. */
export function invalidateEntries(qc: QueryClient, sessionId: string): Promise<void> {
  return qc.invalidateQueries({ queryKey: entryKeys.all(sessionId) });
}

/** §16.3 search on the server (whole entry text): matching ids. */
export function searchOptions(sessionId: string, query: string) {
  return queryOptions({
    queryKey: ["session", sessionId, "search", query] as const,
    queryFn: async ({ signal }) =>
      (await getJson<{ ids: string[] }>(`/api/sessions/${encodeURIComponent(sessionId)}/search?${new URLSearchParams({ q: query })}`, { signal })).ids,
    staleTime: 5_000,
  });
}
