"use client";
/**
 * The rows of a long turn, whose view carries only its first and last pages
 * (lib/inspector/message-window.ts): those, the pages loaded since, and in the gap one row
 * saying how many messages are not shown, with "Show more". The next page loads when that row
 * scrolls into view or on the click; nothing is requested before (a long turn opens with the
 * one request of its view). Rows from any page are the same MessageRow as the window's (their
 * markers and entry links come with each message from the server).
 */
import { useInfiniteQuery } from "@tanstack/react-query";
import { type ReactNode, useEffect, useMemo, useRef, useState } from "react";
import { hiddenRange, mergeMessages } from "@/lib/inspector/message-window";
import type { InspectedMessage, TurnView } from "@/lib/types/inspector";
import { type InspectTarget, turnMessagesOptions } from "@/lib/query/inspector";
import { formatNumber } from "./format";

export interface PagedMessagesProps {
  sessionId: string;
  target: InspectTarget;
  turn: TurnView;
  row(m: InspectedMessage): ReactNode;
}

/** The messages shown so far of a windowed turn (the window, then the loaded pages), and how to load more. */
export function usePagedMessages(sessionId: string, target: InspectTarget, turn: TurnView) {
  const [requested, setRequested] = useState(false);
  const query = useInfiniteQuery({ ...turnMessagesOptions(sessionId, target, turn), enabled: requested });
  const pages = query.data?.pages;
  const shown = useMemo(() => mergeMessages(turn.messages, pages?.flatMap((p) => p.messages) ?? []), [turn.messages, pages]);
  const loading = query.isFetching;
  const more = () => {
    if (!requested) setRequested(true);
    else if (loading) return;
    else if (!query.data) void query.refetch(); // the first page failed: try it again
    else if (query.hasNextPage) void query.fetchNextPage({ cancelRefetch: false });
  };
  return { shown, gap: hiddenRange(shown, turn.messageCount), loading, error: query.error, more };
}

export function PagedMessages({ sessionId, target, turn, row }: PagedMessagesProps) {
  const { shown, gap, loading, error, more } = usePagedMessages(sessionId, target, turn);
  const before = gap ? shown.filter((m) => m.index < gap.from) : shown;
  const after = gap ? shown.slice(before.length) : [];
  return (
    <>
      {before.map(row)}
      {gap ? <MoreMessages from={gap.from} to={gap.to} loading={loading} error={error?.message ?? null} onMore={more} /> : null}
      {after.map(row)}
    </>
  );
}

/** The gap's row: how many messages it hides and which, "Show more", and a load on scrolling into view. */
function MoreMessages({ from, to, loading, error, onMore }: { from: number; to: number; loading: boolean; error: string | null; onMore(): void }) {
  const ref = useRef<HTMLLIElement>(null);
  const load = useRef(onMore);
  load.current = onMore;
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver((seen) => {
      if (seen.some((e) => e.isIntersecting)) load.current();
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  const count = to - from;
  return (
    // Not a scroll anchor: rows loaded above it push it down rather than the view up.
    <li ref={ref} className="flex flex-wrap items-center gap-2 border-b border-line px-2 py-2 text-sm" style={{ overflowAnchor: "none" }}>
      <span className="text-xs text-muted">
        {formatNumber(count)} more {count === 1 ? "message" : "messages"} ({formatNumber(from + 1)}–{formatNumber(to)})
      </span>
      <button type="button" className="rounded border border-line px-2 py-0.5 text-xs" onClick={onMore} disabled={loading}>
        {loading ? "Loading messages…" : "Show more"}
      </button>
      {error ? (
        <span role="alert" className="text-xs text-red-700 dark:text-red-300">
          Could not load more messages: {error}
        </span>
      ) : null}
    </li>
  );
}
