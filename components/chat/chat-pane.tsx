"use client";
/**
 * The Chat pane (ui.md): the messages of the active path, the live message while a turn runs,
 * then the toolbar (model picker, context meter, Compact) and the composer.
 *
 * The path comes as skeleton rows (no contents). The pane shows a window of about CHAT_PAGE chat
 * rows (the newest at first; use-chat-window.ts) and loads their contents as per-entry queries
 * (the newest page is prefetched with the page); scrolling to either end of the window, or
 * "Show earlier / later messages", adds a page. The navigation bar (chat-nav.tsx) jumps to the
 * start, turn N, the selected entry or a search match; the chat follows the session's selection.
 */
import { type UseQueryResult, useQueries, useQuery, useQueryClient } from "@tanstack/react-query";
import { sessionUsageOptions } from "@/lib/query/usage";
import type { SummaryCallCost } from "@/lib/usage/compaction-effect";
import { memo, type ReactNode, Suspense, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { entryOptions } from "@/lib/query/entries";
import type { SkeletonEntry } from "@/lib/session-view/tree-skeleton";
import type { SessionEntry } from "@/lib/session/types";
import { CHAT_PAGE, chatPlan } from "@/lib/session-view/chat-plan";
import { chatItemsOf } from "./chat-items";
import { conversationMarkdown } from "./chat-markdown";
import { ChatNav } from "./chat-nav";
import { CompactDialog } from "./compact-dialog";
import { Composer } from "./composer";
import { ContextMeter, type MeterProps } from "./context-meter";
import { Markdown } from "./messages/markdown";
import { MessageView } from "./messages/message-view";
import { useChatWindow } from "./use-chat-window";
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
  flashId,
  onInspect,
  cwd,
  summaryCalls,
}: {
  items: Items;
  selectedEntryId: string | null;
  /** The row a jump landed on, highlighted for a moment. */
  flashId: string | null;
  onInspect: (id: string) => void;
  cwd: string | undefined;
  /** Each compaction's own model call by entry id (its card says what it cost). */
  summaryCalls: ReadonlyMap<string, SummaryCallCost>;
}) {
  return (
    <Suspense fallback={null}>
      {items.items.map((item) => (
        <MessageView
          key={item.entry.id}
          item={item}
          items={items}
          selected={selectedEntryId === item.entry.id}
          flash={flashId === item.entry.id}
          onInspect={onInspect}
          cwd={cwd}
          {...(item.kind === "compaction" ? { summaryCall: summaryCalls.get(item.entry.id) ?? null } : {})}
        />
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
  searchMatches = null,
  cwd,
  draft,
  onDraftChange,
  toolbar,
  turnsBefore,
}: {
  sessionId: string;
  path: readonly SkeletonEntry[];
  /** `path` is the tail of the current path (a large session's page): the prompts before it. */
  turnsBefore?: number;
  meter: MeterProps;
  selectedEntryId?: string | null;
  /** Selects an entry (the session's selection: the canvas and the inspector follow). */
  onInspect: (entryId: string) => void;
  /** Ids of the entries the tree's search matched (null: no search). */
  searchMatches?: ReadonlySet<string> | null;
  /** The session's folder (tool headers show paths relative to it). */
  cwd?: string;
  draft: string;
  onDraftChange: (text: string) => void;
  /** Extra controls above the composer (model picker, settings). */
  toolbar?: ReactNode;
}) {
  const { chat, send, stop, busy, savedSteps, compaction, retry, turnError, notice } = useSessionChat(sessionId);
  const plan = useMemo(() => chatPlan(path), [path]);
  const usage = useQuery(sessionUsageOptions(sessionId));
  const summaryCalls = useMemo(() => new Map((usage.data?.summaryCalls ?? []).map(({ entryId, ...c }) => [entryId, c])), [usage.data]);
  const [compactFocus, setCompactFocus] = useState<string | undefined>();
  const [compactOpen, setCompactOpen] = useState(false);
  const bottom = useRef<HTMLDivElement>(null);
  const top = useRef<HTMLButtonElement>(null);
  const later = useRef<HTMLButtonElement>(null);
  const log = useRef<HTMLDivElement>(null);
  const qc = useQueryClient();
  const [loadingRows, setLoadingRows] = useState(false);
  const nav = useChatWindow({ plan, path, selectedEntryId, log, loading: loadingRows });
  const { from: firstShown, to: lastShown } = nav.bounds;
  const windowPlan = useMemo(() => plan.slice(firstShown, lastShown), [plan, firstShown, lastShown]);
  const contents = useQueries({ queries: windowPlan.map((p) => entryOptions(sessionId, p.id)), combine: contentsOf });
  const items = useMemo(() => {
    const byId = new Map<string, SessionEntry>();
    for (const e of contents) if (e) byId.set(e.id, e);
    return chatItemsOf(windowPlan, (id) => byId.get(id));
  }, [windowPlan, contents]);
  const visibleItems = items.items;
  const pendingRows = items.pending.length > 0;
  if (pendingRows !== loadingRows) setLoadingRows(pendingRows);
  // Stable for MessageList's memo, calling the latest prop.
  const latestInspect = useRef(onInspect);
  latestInspect.current = onInspect;
  const inspect = useCallback((id: string) => latestInspect.current(id), []);

  // The search's matches on this branch, as chat rows in order (ui.md "Chat": a hit is scrolled to).
  const matchRows = useMemo(() => {
    if (!searchMatches) return null;
    const rows = new Set<number>();
    for (const s of path) if (searchMatches.has(s.id)) rows.add(nav.locate(s.id));
    rows.delete(-1);
    return [...rows].sort((a, b) => a - b);
  }, [searchMatches, path, nav.locate]);
  const offPathMatches = searchMatches ? [...searchMatches].filter((id) => nav.locate(id) < 0).length : 0;

  const copyAll = useCallback(async () => {
    const entries = await Promise.all(plan.map((p) => qc.fetchQuery(entryOptions(sessionId, p.id))));
    const byId = new Map(entries.map((e) => [e.id, e]));
    return conversationMarkdown(chatItemsOf(plan, (id) => byId.get(id)).items, cwd);
  }, [plan, qc, sessionId, cwd]);

  // Scrolling to either end of the window loads the next page (the buttons stay for keyboards).
  const hasEarlier = firstShown > 0;
  const hasLater = !nav.following;
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-arm after every page
  useEffect(() => {
    const observed = [hasEarlier ? top.current : null, hasLater ? later.current : null].filter((el): el is HTMLButtonElement => el !== null);
    if (observed.length === 0) return;
    let armed = false; // not while the log first scrolls into place
    const arm = setTimeout(() => (armed = true), 500);
    const observer = new IntersectionObserver((seen) => {
      if (!armed || nav.jumping) return;
      for (const s of seen) {
        if (!s.isIntersecting) continue;
        if (s.target === top.current) nav.showEarlier();
        else if (s.target === later.current) nav.showLater();
      }
    });
    for (const el of observed) observer.observe(el);
    return () => {
      clearTimeout(arm);
      observer.disconnect();
    };
  }, [hasEarlier, hasLater, firstShown, lastShown, nav.jumping]);

  const live = busy ? liveParts(chat.messages, savedSteps) : [];
  const pendingUser = busy && chat.messages.at(-1)?.role === "user" ? chat.messages.at(-1) : undefined;
  const liveKey = `${path.length}:${visibleItems.at(-1)?.entry.id ?? ""}:${live.length}:${compaction?.text.length ?? 0}`;
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll whenever the visible content grows
  useEffect(() => {
    // Only while the window shows the newest rows and no jump is on its way.
    if (nav.following && !nav.jumping) bottom.current?.scrollIntoView({ block: "end" });
  }, [liveKey]);

  return (
    <section aria-label="Chat" className="flex h-full min-h-0 flex-col">
      {plan.length > 0 && (
        <ChatNav
          nav={nav}
          rows={plan.length}
          selectedEntryId={selectedEntryId ?? null}
          matches={matchRows}
          offPathMatches={offPathMatches}
          onSelect={(row) => {
            const id = plan[row]?.id;
            if (id) inspect(id);
          }}
          copyAll={copyAll}
          {...(turnsBefore !== undefined ? { turnsBefore } : {})}
        />
      )}
      <div ref={log} role="log" aria-label="Messages" className="min-h-0 flex-1 space-y-3 overflow-y-auto p-3">
        {plan.length === 0 && !busy && <p className="text-muted">This session is empty. Send a message to start it.</p>}
        {hasEarlier && (
          <button ref={top} type="button" onClick={nav.showEarlier} className="w-full rounded border border-line py-1 text-sm text-muted">
            Show {Math.min(CHAT_PAGE, firstShown)} earlier messages ({firstShown} not shown)
          </button>
        )}
        {items.pending.length > 0 && (
          <p role="status" className="text-sm text-muted">
            Loading {items.pending.length} {items.pending.length === 1 ? "message" : "messages"}…
          </p>
        )}
        <MessageList items={items} selectedEntryId={selectedEntryId ?? null} flashId={nav.flashId} onInspect={inspect} cwd={cwd} summaryCalls={summaryCalls} />
        {hasLater && (
          <div className="flex gap-2">
            <button ref={later} type="button" onClick={nav.showLater} className="flex-1 rounded border border-line py-1 text-sm text-muted">
              Show later messages ({plan.length - lastShown} not shown)
            </button>
            <button type="button" onClick={nav.showLatest} className="rounded border border-line px-2 py-1 text-sm">
              Jump to the newest
            </button>
          </div>
        )}
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
          <ContextMeter {...meter} />
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
