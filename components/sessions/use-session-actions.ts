"use client";
/**
 * Rename, delete and restore from the session list. Each action updates every cached list
 * page at once (optimistic), calls its server action, and refetches the lists afterwards so
 * the server stays the source of truth (conventions rule 7).
 */
import { type InfiniteData, type QueryClient, useMutation, useQueryClient } from "@tanstack/react-query";
import { deleteSession, renameSession, restoreSession } from "@/app/actions";
import type { ActionResult } from "@/lib/action-result";
import type { SessionPage, SessionSummary } from "@/lib/types/session";
import { invalidateSession, keys } from "@/lib/query/keys";

type ListData = InfiniteData<SessionPage, string | null>;

function mapLists(qc: QueryClient, fn: (s: SessionSummary[]) => SessionSummary[]): void {
  qc.setQueriesData<ListData>({ queryKey: keys.sessionLists() }, (data) =>
    data ? { ...data, pages: data.pages.map((p) => ({ ...p, sessions: fn(p.sessions) })) } : data,
  );
}

/** A failed result becomes an Error with words for the person who clicked. */
function unwrap<T>(result: ActionResult<T>, fallback: string): T {
  if (result.ok) return result.data;
  throw new Error(result.message ?? fallback);
}

export function useSessionActions(handlers: { onDeleted: (s: SessionSummary) => void; onError: (message: string) => void }) {
  const qc = useQueryClient();
  const refresh = () => qc.invalidateQueries({ queryKey: keys.sessionLists() });

  const rename = useMutation({
    mutationFn: async (input: { id: string; title: string }) =>
      unwrap(await renameSession(input), "Could not rename the session; try again."),
    onMutate: async ({ id, title }) => {
      await qc.cancelQueries({ queryKey: keys.sessionLists() });
      const shown = title.replace(/\s+/g, " ").trim() || null;
      mapLists(qc, (list) => list.map((s) => (s.id === id ? { ...s, title: shown } : s)));
    },
    onError: (error) => handlers.onError(error.message),
    onSettled: (_data, _error, { id }) => {
      void invalidateSession(qc, id);
      return refresh();
    },
  });

  const remove = useMutation({
    mutationFn: async (session: SessionSummary) => {
      unwrap(await deleteSession({ id: session.id }), "Could not delete the session; try again.");
      return session;
    },
    onMutate: async (session) => {
      await qc.cancelQueries({ queryKey: keys.sessionLists() });
      mapLists(qc, (list) => list.filter((s) => s.id !== session.id));
    },
    onSuccess: (session) => handlers.onDeleted(session),
    onError: (error) => handlers.onError(error.message),
    onSettled: refresh,
  });

  const restore = useMutation({
    mutationFn: async (session: SessionSummary) =>
      unwrap(await restoreSession({ id: session.id }), "Could not restore the session; try again."),
    onError: (error) => handlers.onError(error.message),
    onSettled: refresh,
  });

  return { rename, remove, restore };
}
