"use client";
/**
 * The chat's window over the active path's rows (chat-window.ts) and its jumps: to the start, to
 * turn N, to the selected entry (the chat follows the session's selection, whoever set it: the
 * canvas, the inspector, a search hit) and to a search hit. A jump moves the window, then scrolls
 * the row into view once its contents are on screen, and highlights it for a moment.
 * A move of the current leaf (a sent message, a navigation) shows the newest rows again.
 */
import { type RefObject, useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { SkeletonEntry } from "@/lib/session-view/tree-skeleton";
import { CHAT_PAGE, type ChatPlanItem } from "@/lib/session-view/chat-plan";
import { type ChatWindow, extendDown, extendUp, including, latestWindow, planLocator, shifted, turnStarts, windowBounds } from "./chat-window";

/** How long a row a jump landed on stays highlighted. */
export const FLASH_MS = 2500;

export interface ChatWindowState {
  bounds: { from: number; to: number };
  following: boolean;
  turns: number[];
  /** The plan row where an entry is read (-1: not on this path). */
  locate(entryId: string): number;
  /** Jumps to an entry's row; false when it is not on the path. */
  jumpTo(entryId: string, opts?: { flash?: boolean }): boolean;
  jumpToRow(index: number, opts?: { flash?: boolean }): void;
  showLatest(): void;
  showEarlier(): void;
  showLater(): void;
  /** The row highlighted after a jump. */
  flashId: string | null;
  /** A jump is waiting for its row to be on screen (the log must not scroll to the bottom meanwhile). */
  jumping: boolean;
}

export function useChatWindow(opts: {
  plan: readonly ChatPlanItem[];
  path: readonly SkeletonEntry[];
  selectedEntryId: string | null | undefined;
  log: RefObject<HTMLElement | null>;
  /** Rows of the window whose contents are still loading. */
  loading: boolean;
}): ChatWindowState {
  const { plan, path, selectedEntryId, log, loading } = opts;
  const leafId = path.at(-1)?.id ?? null;
  const [win, setWin] = useState<ChatWindow>(() => latestWindow(plan.length, CHAT_PAGE));
  const [target, setTarget] = useState<string | null>(null);
  const [flashId, setFlashId] = useState<string | null>(null);

  // A new leaf shows the newest rows (set while rendering: React's pattern for derived state).
  const [seenLeaf, setSeenLeaf] = useState(leafId);
  // Rows put before the first (a large session's page carries the path's tail until the whole
  // tree has streamed in): the window keeps its rows, not its indices, which would now span
  // from the path's start to its end.
  const firstId = plan[0]?.id ?? null;
  const [seenFirst, setSeenFirst] = useState(firstId);
  if (seenLeaf !== leafId) {
    setSeenLeaf(leafId);
    setSeenFirst(firstId);
    setWin(latestWindow(plan.length, CHAT_PAGE));
  } else if (seenFirst !== firstId) {
    setSeenFirst(firstId);
    const shift = seenFirst === null ? -1 : plan.findIndex((p) => p.id === seenFirst);
    setWin((w) => (shift > 0 ? shifted(w, shift) : latestWindow(plan.length, CHAT_PAGE)));
  }

  const roles = useMemo(() => new Map(path.map((s) => [s.id, s.role])), [path]);
  const locate = useMemo(() => planLocator(path.map((s) => s.id), plan), [path, plan]);
  const turns = useMemo(() => turnStarts(plan, (id) => roles.get(id)), [plan, roles]);

  const jumpToRow = useCallback(
    (index: number, o: { flash?: boolean } = {}) => {
      // A tool result is read under its call, in the assistant row before it.
      let i = index;
      while (i > 0 && roles.get(plan[i]!.id) === "toolResult") i--;
      const id = plan[i]?.id;
      if (id === undefined) return;
      setWin((w) => including(w, i, plan.length, CHAT_PAGE));
      setTarget(id);
      if (o.flash) setFlashId(id);
    },
    [plan, roles],
  );
  const jumpTo = useCallback(
    (entryId: string, o: { flash?: boolean } = {}) => {
      const index = locate(entryId);
      if (index < 0) return false;
      jumpToRow(index, o);
      return true;
    },
    [locate, jumpToRow],
  );

  // The chat follows the session's selection.
  const followed = useRef<string | null | undefined>(selectedEntryId);
  useEffect(() => {
    if (followed.current === selectedEntryId) return;
    followed.current = selectedEntryId;
    if (selectedEntryId) jumpTo(selectedEntryId);
  }, [selectedEntryId, jumpTo]);

  // Scroll to the target once its row is on screen; a row that renders nothing (still loading,
  // or shown under another) falls back to the nearest row before it once loading is done. No
  // dependency list: it runs after every render until the row is there.
  useEffect(() => {
    if (!target || !log.current) return;
    let el = log.current.querySelector<HTMLElement>(`[data-entry-id="${CSS.escape(target)}"]`);
    if (!el && !loading) {
      const index = plan.findIndex((p) => p.id === target);
      for (let i = index - 1; i >= 0 && !el; i--) el = log.current.querySelector<HTMLElement>(`[data-entry-id="${CSS.escape(plan[i]!.id)}"]`);
      if (!el) return setTarget(null);
    }
    if (!el) return;
    el.scrollIntoView({ block: "start" });
    setTarget(null);
  });

  useEffect(() => {
    if (!flashId) return;
    const timer = setTimeout(() => setFlashId(null), FLASH_MS);
    return () => clearTimeout(timer);
  }, [flashId]);

  const bounds = windowBounds(win, plan.length, CHAT_PAGE);
  return {
    bounds,
    following: win.to === null,
    turns,
    locate,
    jumpTo,
    jumpToRow,
    showLatest: () => setWin(latestWindow(plan.length, CHAT_PAGE)),
    showEarlier: () => setWin((w) => extendUp(w, plan.length, CHAT_PAGE)),
    showLater: () => setWin((w) => extendDown(w, plan.length, CHAT_PAGE)),
    flashId,
    jumping: target !== null,
  };
}
