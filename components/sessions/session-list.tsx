"use client";
/**
 * The home page (ui.md "Pages: /"): "New session", the full-text search box, the import drop
 * zone, the filters and grouping (list-filters.tsx, in the address: use-list-view.ts) and the
 * list of sessions, newest activity first, paged by cursor ("Load more", and
 * automatically when the end of the list scrolls into view). Delete removes the row at once and
 * moves the session to the Trash (/trash: restorable for 30 days), which the toast links to. The
 * list follows sessions written elsewhere without a reload (use-live-list.ts: a sync importing or
 * appending, another process).
 */
import { keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useRef, useState, useTransition } from "react";
import { createSession } from "@/app/actions";
import { useTypedBeforeHydration } from "@/components/ui-hooks/use-typed-before-hydration";
import type { SessionSummary } from "@/lib/types/session";
import { sessionListOptions } from "@/lib/query/keys";
import { FirstStart } from "./first-start";
import { readableFormats, useNow } from "./format";
import { ImportDropZone } from "./import-drop-zone";
import { isFiltered, ListFilters } from "./list-filters";
import { SessionGroups } from "./session-groups";
import { type ToastMessage, UndoToast } from "./undo-toast";
import { useDebounced } from "./use-debounced";
import { useListView } from "./use-list-view";
import { useLiveList } from "./use-live-list";
import { useSessionActions } from "./use-session-actions";

const SEARCH_DEBOUNCE_MS = 250;
const errorText = "mb-4 text-red-700 dark:text-red-300";

let toastId = 0;

export function SessionList() {
  const router = useRouter();
  const now = useNow();
  const [text, setText] = useState("");
  const query = useDebounced(text.trim(), SEARCH_DEBOUNCE_MS);
  const [byCost, setByCost] = useState(false);
  const { view, setView, filter } = useListView();
  const list = useInfiniteQuery({ ...sessionListOptions(query, byCost ? "cost" : "activity", filter), placeholderData: keepPreviousData });
  useLiveList();
  const [pending, startTransition] = useTransition();
  const [createError, setCreateError] = useState<string | null>(null);
  const [toast, setToast] = useState<ToastMessage | null>(null);
  const [firstStartUsed, setFirstStartUsed] = useState(false);
  const search = useRef<HTMLInputElement>(null);
  useTypedBeforeHydration(search, text, setText);
  const closeToast = useCallback(() => setToast(null), []);

  const showError = useCallback((message: string) => setToast({ id: ++toastId, text: message, tone: "error" }), []);
  // A deleted session goes to the Trash, restorable there for 30 days (no timed undo).
  const { rename, remove } = useSessionActions({
    onDeleted: () =>
      setToast({
        id: ++toastId,
        text: "Session moved to the Trash",
        action: { label: "Open the Trash", run: () => router.push("/trash") },
      }),
    onError: showError,
  });

  const onNew = () =>
    startTransition(async () => {
      setCreateError(null);
      const result = await createSession({});
      if (result.ok) router.push(`/sessions/${result.data.id}`);
      else setCreateError(result.message ?? "Could not create a session; try again.");
    });

  const onRename = useCallback((id: string, title: string) => rename.mutate({ id, title }), [rename.mutate]);
  const onDelete = useCallback(
    (session: SessionSummary) => {
      remove.mutate(session);
      search.current?.focus(); // the row, and the focused menu with it, is gone
    },
    [remove.mutate],
  );

  // Loads the next page when the end of the list comes into view.
  const sentinel = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;
  useEffect(() => {
    const el = sentinel.current;
    if (!el || !hasNextPage) return;
    const observer = new IntersectionObserver(
      (seen) => {
        if (seen.some((e) => e.isIntersecting) && !isFetchingNextPage) void fetchNextPage();
      },
      { rootMargin: "400px" },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  const loaded = list.data?.pages.flatMap((p) => p.sessions) ?? [];
  // "Sort by cost": the server pages the list costliest first; a search's matches come in the
  // search's order, so those loaded so far are ordered here.
  const sessions = byCost && query ? [...loaded].sort((a, b) => (b.usage?.costMicros ?? -1) - (a.usage?.costMicros ?? -1)) : loaded;
  const searching = list.isPlaceholderData && list.isFetching;
  const settledQuery = list.isPlaceholderData ? "" : query;

  return (
    <div className="mx-auto max-w-4xl space-y-6 p-6">
      <div className="flex flex-wrap items-center gap-4">
        <h1 className="mr-auto text-2xl font-semibold">Sessions</h1>
        <input
          ref={search}
          type="search"
          aria-label="Search sessions"
          placeholder="Search sessions"
          value={text}
          onChange={(e) => setText(e.target.value)}
          className="w-64 max-w-full rounded border border-line bg-[var(--bg)] px-3 py-1.5 placeholder:text-[var(--muted)] focus-visible:outline-2 focus-visible:outline-[var(--color-accent)]"
        />
        <button
          type="button"
          aria-pressed={byCost}
          onClick={() => setByCost((v) => !v)}
          className="rounded border border-line px-3 py-1.5 text-sm hover:bg-[var(--panel)]"
        >
          Sort by cost
        </button>
        <button
          type="button"
          onClick={onNew}
          disabled={pending}
          className="rounded bg-[var(--color-accent)] px-3 py-1.5 font-medium text-white hover:opacity-90 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-[var(--color-accent)] disabled:opacity-60 dark:text-black"
        >
          {pending ? "Creating…" : "New session"}
        </button>
      </div>
      {createError && (
        <p role="alert" className={errorText}>
          {createError}
        </p>
      )}

      <ImportDropZone />

      <ListFilters view={view} onChange={setView} searching={searching} />

      {list.error && (
        <p role="alert" className={errorText}>
          Could not load sessions: {list.error.message}.{" "}
          <button type="button" className="underline" onClick={() => void list.refetch()}>
            Try again
          </button>
        </p>
      )}

      {(firstStartUsed || (sessions.length === 0 && list.isSuccess && !list.isPlaceholderData && !settledQuery && !isFiltered(view))) && (
        // Kept while its sync runs, as the sessions it imports fill the list below.
        <FirstStart onStarted={() => setFirstStartUsed(true)} />
      )}
      {sessions.length === 0 && list.isSuccess && !list.isPlaceholderData ? (
        settledQuery ? (
          <p className="text-muted">No sessions match “{settledQuery}”{isFiltered(view) ? " with these filters" : ""}.</p>
        ) : isFiltered(view) ? (
          <p className="text-muted">
            No sessions with these filters.{" "}
            <button type="button" className="underline" onClick={() => setView({ active: "any", groupBy: view.groupBy })}>
              Clear filters
            </button>
          </p>
        ) : (
          <p className="text-muted">
            Arbor shows agent sessions as trees you can chat in, compact and branch. Start a new session, or import a
            session file from {readableFormats()}.
          </p>
        )
      ) : (
        sessions.length > 0 && (
          <SessionGroups
            sessions={sessions}
            view={view}
            now={now}
            busy={searching || isFetchingNextPage}
            partial={hasNextPage}
            onView={setView}
            onRename={onRename}
            onDelete={onDelete}
          />
        )
      )}

      {hasNextPage && (
        <div ref={sentinel} className="flex justify-center">
          <button
            type="button"
            onClick={() => void fetchNextPage()}
            disabled={isFetchingNextPage}
            className="rounded border border-line px-3 py-1.5 hover:bg-[var(--panel)] focus-visible:outline-2 focus-visible:outline-[var(--color-accent)] disabled:opacity-60"
          >
            {isFetchingNextPage ? "Loading…" : "Load more"}
          </button>
        </div>
      )}

      <UndoToast toast={toast} onClose={closeToast} />
    </div>
  );
}
