"use client";
/**
 * The Chat pane (ui.md): the messages of the active path, the live message while a turn runs,
 * then the toolbar (model picker, context meter, Compact) and the composer.
 *
 * The path comes as skeleton rows (no contents). The pane shows the newest CHAT_PAGE chat rows
 * and loads their contents as per-entry queries (the newest page is prefetched with the page);
 * scrolling to the top, or "Show earlier messages", adds a page, and a selected entry further
 * back is always brought in.
 */
import { type UseQueryResult, useQueries } from "@tanstack/react-query";
import { memo, type ReactNode, Suspense, useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { MeterReading } from "@/lib/chat-protocol/context-meter";
import { entryOptions } from "@/lib/query/entries";
import type { SkeletonEntry } from "@/lib/session-view/tree-skeleton";
import type { SessionEntry } from "@/lib/session/types";
import { CHAT_PAGE, chatPlan, firstShownIndex } from "@/lib/session-view/chat-plan";
import { chatItemsOf } from "./chat-items";
import { CompactDialog } from "./compact-dialog";
import { Composer } from "./composer";
import { ContextMeter } from "./context-meter";
import { Markdown } from "./markdown";
import { MessageView } from "./message-view";
import { liveParts, useSessionChat } from "./use-session-chat";

const contentsOf = (results: UseQueryResult<SessionEntry>[]) => results.map((r) => r.data);

type Items = ReturnType<typeof chatItemsOf>;

/**
 * The messages, in a Suspense boundary of their own. Hydrating the page, React leaves a boundary
 * for a pass of its own after the page's first task, one that gives the main thread back every
 * few ms: the Markdown of the newest page of messages is then no longer part of the one long
 * hydration task (docs/benchmarks.md: no main-thread task over 200 ms). Memoised, with a stable `onInspect`, so a
 * re-render of the pane meanwhile does not make React hydrate the boundary at once.
 */
const MessageList = memo(function MessageList({
  items,
  selectedEntryId,
  onInspect,
}: {
  items: Items;
  selectedEntryId: string | null;
  onInspect: (id: string) => void;
}) {
  return (
    <Suspense fallback={null}>
      {items.items.map((item) => (
        <MessageView key={item.entry.id} item={item} items={items} selected={selectedEntryId === item.entry.id} onInspect={onInspect} />
      ))}
    </Suspense>
  );
});

export function ChatPane({
  sessionId,
  path,
  meter,
  selectedEntryId,
  onInspect,
  draft,
  onDraftChange,
  toolbar,
}: {
  sessionId: string;
  path: readonly SkeletonEntry[];
  meter: MeterReading | undefined;
  selectedEntryId?: string | null;
  onInspect: (entryId: string) => void;
  draft: string;
  onDraftChange: (text: string) => void;
  /** Extra controls above the composer (model picker, settings). */
  toolbar?: ReactNode;
}) {
  const { chat, send, stop, busy, savedSteps, compaction, retry, turnError, notice } = useSessionChat(sessionId);
  const plan = useMemo(() => chatPlan(path), [path]);
  const [compactFocus, setCompactFocus] = useState<string | undefined>();
  const [compactOpen, setCompactOpen] = useState(false);
  const bottom = useRef<HTMLDivElement>(null);
  const top = useRef<HTMLButtonElement>(null);
  const [shown, setShown] = useState(CHAT_PAGE);
  const firstShown = firstShownIndex(plan, shown, selectedEntryId);
  const windowPlan = useMemo(() => plan.slice(firstShown), [plan, firstShown]);
  const contents = useQueries({ queries: windowPlan.map((p) => entryOptions(sessionId, p.id)), combine: contentsOf });
  const items = useMemo(() => {
    const byId = new Map<string, SessionEntry>();
    for (const e of contents) if (e) byId.set(e.id, e);
    return chatItemsOf(windowPlan, (id) => byId.get(id));
  }, [windowPlan, contents]);
  const visibleItems = items.items;
  // Stable for MessageList's memo, calling the latest prop.
  const latestInspect = useRef(onInspect);
  latestInspect.current = onInspect;
  const inspect = useCallback((id: string) => latestInspect.current(id), []);
  const showEarlier = () => setShown(plan.length - firstShown + CHAT_PAGE);

  // Scrolling up to the "earlier messages" button loads the next page (the button stays for keyboards).
  const hasEarlier = firstShown > 0;
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-arm after every page
  useEffect(() => {
    const el = top.current;
    if (!el || !hasEarlier) return;
    let armed = false; // not while the log first scrolls to the bottom
    const arm = setTimeout(() => (armed = true), 500);
    const observer = new IntersectionObserver((seen) => {
      if (armed && seen.some((s) => s.isIntersecting)) setShown((n) => n + CHAT_PAGE);
    });
    observer.observe(el);
    return () => {
      clearTimeout(arm);
      observer.disconnect();
    };
  }, [hasEarlier, firstShown]);

  const live = busy ? liveParts(chat.messages, savedSteps) : [];
  const pendingUser = busy && chat.messages.at(-1)?.role === "user" ? chat.messages.at(-1) : undefined;
  const liveKey = `${path.length}:${visibleItems.at(-1)?.entry.id ?? ""}:${live.length}:${compaction?.text.length ?? 0}`;
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll whenever the visible content grows
  useEffect(() => {
    bottom.current?.scrollIntoView({ block: "end" });
  }, [liveKey]);

  return (
    <section aria-label="Chat" className="flex h-full min-h-0 flex-col">
      <div role="log" aria-label="Messages" className="min-h-0 flex-1 space-y-3 overflow-y-auto p-3">
        {plan.length === 0 && !busy && <p className="text-muted">This session is empty. Send a message to start it.</p>}
        {hasEarlier && (
          <button ref={top} type="button" onClick={showEarlier} className="w-full rounded border border-line py-1 text-sm text-muted">
            Show {Math.min(CHAT_PAGE, firstShown)} earlier messages ({firstShown} not shown)
          </button>
        )}
        {items.pending.length > 0 && (
          <p role="status" className="text-sm text-muted">
            Loading {items.pending.length} {items.pending.length === 1 ? "message" : "messages"}…
          </p>
        )}
        <MessageList items={items} selectedEntryId={selectedEntryId ?? null} onInspect={inspect} />
        {pendingUser && (
          <div className="rounded-lg bg-panel px-3 py-2 opacity-70">
            <div className="mb-1 text-xs font-semibold text-muted">User (sending…)</div>
            <div className="whitespace-pre-wrap">{pendingUser.parts.map((p) => (p.type === "text" ? p.text : "")).join("")}</div>
          </div>
        )}
        {live.length > 0 && (
          <article aria-label="assistant message (streaming)" aria-busy="true" className="space-y-2 px-1">
            <div className="text-xs font-semibold text-muted">Assistant · writing…</div>
            {live.map((p, i) =>
              p.type === "reasoning" ? (
                // biome-ignore lint/suspicious/noArrayIndexKey: streamed parts have no id
                <details key={i} className="text-sm text-muted" open>
                  <summary>Thinking</summary>
                  <div className="whitespace-pre-wrap">{p.text}</div>
                </details>
              ) : p.type === "text" ? (
                // biome-ignore lint/suspicious/noArrayIndexKey: streamed parts have no id
                <Markdown key={i} text={p.text} />
              ) : null,
            )}
          </article>
        )}
        {compaction && !compaction.done && (
          <div role="status" className="rounded border-l-4 border-[var(--color-compaction)] bg-panel px-3 py-2 text-sm">
            <div className="font-semibold">
              {compaction.reason === "overflow" ? "Context overflow — compacting and retrying…" : compaction.reason === "threshold" ? "Context is nearly full — compacting…" : "Compacting…"}
            </div>
            {compaction.text && <pre className="mt-1 max-h-40 overflow-auto whitespace-pre-wrap text-xs">{compaction.text}</pre>}
          </div>
        )}
        {compaction?.done && compaction.errorMessage && (
          <p role="alert" className="text-sm text-red-700 dark:text-red-300">
            {compaction.errorMessage}
          </p>
        )}
        {retry && retry.phase === "start" && (
          <p role="status" className="text-sm text-muted">
            {retry.errorMessage} — retrying in {Math.round(retry.delayMs / 100) / 10}s (attempt {retry.attempt} of {retry.maxAttempts})
          </p>
        )}
        {retry && retry.phase === "end" && !retry.success && (
          <p role="alert" className="text-sm text-red-700 dark:text-red-300">
            Retries failed: {retry.finalError}
          </p>
        )}
        {notice && <p className="text-xs text-muted">{notice}</p>}
        {turnError && (
          <p role="alert" className="text-sm text-red-700 dark:text-red-300">
            {turnError.message}
          </p>
        )}
        <div ref={bottom} />
      </div>
      <div className="space-y-2 border-t border-line p-3">
        <div className="flex flex-wrap items-center gap-3">
          {toolbar}
          <ContextMeter reading={meter} />
          <button
            type="button"
            disabled={busy}
            onClick={() => {
              setCompactFocus(undefined);
              setCompactOpen(true);
            }}
            className="ml-auto rounded border border-line px-2 py-1 text-sm disabled:opacity-50"
          >
            Compact
          </button>
        </div>
        <Composer
          value={draft}
          onChange={onDraftChange}
          busy={busy}
          onSend={(text) => void send(text)}
          onStop={() => void stop()}
          onCompact={(focus) => {
            setCompactFocus(focus);
            setCompactOpen(true);
          }}
        />
      </div>
      <CompactDialog sessionId={sessionId} focus={compactFocus} open={compactOpen} onClose={() => setCompactOpen(false)} />
    </section>
  );
}
