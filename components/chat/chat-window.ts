/**
 * Which part of the active path's chat rows (lib/session-view/chat-plan.ts) the chat shows, and
 * where "jump to" lands (ui.md "Chat": the start, turn N, the selected entry, a search hit). The
 * chat shows a window of about one page of rows; a jump moves the window to the target (a few
 * rows of context above it) instead of loading everything between, and the window grows a page
 * at a time when scrolled to either end. Pure: no DOM, no network.
 */
import type { ChatPlanItem } from "@/lib/session-view/chat-plan";

export interface ChatWindow {
  /** First plan index shown. */
  from: number;
  /** One past the last plan index shown; null = up to the newest row (the window follows new messages). */
  to: number | null;
}

/** Rows kept above a jump's target, so it is read in its context. */
export const JUMP_CONTEXT = 3;

/**
 * The most rows a window holds, in pages: each shown row is a query of its own (its contents), so
 * a window that grew with the path (a live session followed for hours, a page of the tail that
 * became the whole path) would make the chat load thousands of them at once. Past it, the end
 * away from the reader is let go.
 */
export const MAX_PAGES = 8;

export function latestWindow(length: number, page: number): ChatWindow {
  return { from: Math.max(0, length - page), to: null };
}

/** The window showing plan row `index` near its top; it follows new messages when it reaches the end. */
export function windowAround(length: number, index: number, page: number): ChatWindow {
  const from = Math.max(0, Math.min(index - JUMP_CONTEXT, length - page));
  const to = from + page;
  return { from, to: to >= length ? null : to };
}

/** Concrete bounds of a window over `length` rows (clamped: the path may have shrunk since). */
export function windowBounds(w: ChatWindow, length: number, page: number): { from: number; to: number } {
  const to = w.to === null ? length : Math.min(w.to, length);
  // A window following new rows keeps its newest MAX_PAGES pages.
  return { from: Math.max(0, Math.min(w.from, to), to - page * MAX_PAGES), to };
}

/** A page more above; the bottom is let go past MAX_PAGES (the reader is at the top). */
export function extendUp(w: ChatWindow, length: number, page: number): ChatWindow {
  const from = Math.max(0, w.from - page);
  const to = w.to ?? length;
  return to - from > page * MAX_PAGES ? { from, to: from + page * MAX_PAGES } : { ...w, from };
}

/** A page more below; the top is let go past MAX_PAGES (the reader is at the bottom). */
export function extendDown(w: ChatWindow, length: number, page: number): ChatWindow {
  return w.to === null ? w : downTo(w, w.to + page, length, page);
}

/** The window reaching down to `to` (following new rows once that is the end). */
function downTo(w: ChatWindow, to: number, length: number, page: number): ChatWindow {
  return { from: Math.max(w.from, to - page * MAX_PAGES), to: to >= length ? null : to };
}

/**
 * The window after `shift` rows were put before the first one (the path's tail a large session's
 * page came with, replaced by the whole path once its tree streamed in): the same rows.
 */
export function shifted(w: ChatWindow, shift: number): ChatWindow {
  return { from: w.from + shift, to: w.to === null ? null : w.to + shift };
}

/** The window, widened to include plan row `index` (the rows between are loaded: a short way). */
export function including(w: ChatWindow, index: number, length: number, page: number): ChatWindow {
  const { from, to } = windowBounds(w, length, page);
  if (index >= from && index < to) return w;
  // Close to the window: widen it; far away: jump.
  if (index < from && from - index <= page) return { ...w, from: index };
  if (index >= to && index - to < page) return downTo(w, index + 1, length, page);
  return windowAround(length, index, page);
}

/**
 * Where each path entry is read in the chat: the plan row at or before it (a tool result is read
 * under its call, a label or setting beside the message before it). `locate(id)` gives the plan
 * index, or -1 for an entry not on the path or before every row.
 */
export function planLocator(pathIds: readonly string[], plan: readonly ChatPlanItem[]): (entryId: string) => number {
  const planIndexOfId = new Map(plan.map((p, i) => [p.id, i]));
  let pathIndex: Map<string, number> | undefined;
  let rowAt: Int32Array | undefined;
  return (entryId) => {
    const direct = planIndexOfId.get(entryId);
    if (direct !== undefined) return direct;
    if (!pathIndex || !rowAt) {
      pathIndex = new Map(pathIds.map((id, i) => [id, i]));
      rowAt = new Int32Array(pathIds.length);
      let last = -1;
      pathIds.forEach((id, i) => {
        last = planIndexOfId.get(id) ?? last;
        rowAt![i] = last;
      });
    }
    const at = pathIndex.get(entryId);
    return at === undefined ? -1 : rowAt[at]!;
  };
}

/** Plan indices of the rows that start a turn (a user message), in order: "turn N" is the N-th. */
export function turnStarts(plan: readonly ChatPlanItem[], roleOf: (id: string) => string | undefined): number[] {
  const out: number[] = [];
  plan.forEach((p, i) => {
    if (roleOf(p.id) === "user") out.push(i);
  });
  return out;
}
