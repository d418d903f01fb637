/**
 * TanStack Query keys and queryOptions for the context inspector (conventions rule 7).
 *
 * Every key lives under `keys.session(id)` (["session", id, "inspector", …]), so whatever
 * invalidates a session's data after a turn, a compaction or a navigation also refreshes the
 * inspector. Data comes from the JSON routes:
 * - GET /api/sessions/[id]/calls              → ModelCallSummary[]
 * - GET /api/sessions/[id]/inspect?entry= | ?call= | ?preview=1 → TurnView
 * - GET /api/sessions/[id]/inspect/messages?<same>&offset=&limit= → InspectedMessagesPage, the
 *   messages a long turn's view left out (lib/inspector/message-window.ts), page by page
 */
import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import { hiddenRange, MESSAGE_PAGE_SIZE } from "@/lib/inspector/message-window";
import type { InspectedMessagesPage, InspectTarget, ModelCallSummary, TurnView } from "@/lib/types/inspector";
import { getJson, keys } from "./keys";

export type { InspectTarget } from "@/lib/types/inspector";

export const inspectorKeys = {
  all: (sessionId: string) => [...keys.session(sessionId), "inspector"] as const,
  calls: (sessionId: string) => [...inspectorKeys.all(sessionId), "calls"] as const,
  turn: (sessionId: string, target: InspectTarget) =>
    [...inspectorKeys.all(sessionId), "turn", target.kind, target.kind === "entry" ? target.entryId : target.kind === "call" ? target.callId : ""] as const,
  /** The pages of a turn of `messageCount` messages (a new count, e.g. of the preview, starts over). */
  messages: (sessionId: string, target: InspectTarget, messageCount: number) =>
    [...inspectorKeys.turn(sessionId, target), "messages", messageCount] as const,
};

const base = (sessionId: string) => `/api/sessions/${encodeURIComponent(sessionId)}`;

function targetQuery(target: InspectTarget): string {
  if (target.kind === "entry") return `entry=${encodeURIComponent(target.entryId)}`;
  if (target.kind === "call") return `call=${encodeURIComponent(target.callId)}`;
  return "preview=1";
}

export function inspectUrl(sessionId: string, target: InspectTarget): string {
  return `${base(sessionId)}/inspect?${targetQuery(target)}`;
}

export function inspectMessagesUrl(sessionId: string, target: InspectTarget, offset: number, limit: number): string {
  return `${base(sessionId)}/inspect/messages?${targetQuery(target)}&offset=${offset}&limit=${limit}`;
}

export function modelCallsOptions(sessionId: string) {
  return queryOptions({
    queryKey: inspectorKeys.calls(sessionId),
    queryFn: async ({ signal }) => (await getJson<{ calls: ModelCallSummary[] }>(`${base(sessionId)}/calls`, { signal })).calls,
    // The page seeds it (app/sessions/[id]/page.tsx); a turn, a compaction or a navigation
    // invalidates the session's keys, which refetches it. Long enough that a slow first render
    // does not fetch again what the page brought.
    staleTime: 60_000,
  });
}

export function inspectTurnOptions(sessionId: string, target: InspectTarget) {
  return queryOptions({
    queryKey: inspectorKeys.turn(sessionId, target),
    queryFn: async ({ signal }) => (await getJson<{ turn: TurnView }>(inspectUrl(sessionId, target), { signal })).turn,
    // The preview depends on the session's current state; recorded turns do not change.
    staleTime: target.kind === "preview" ? 0 : 30_000,
  });
}

/**
 * The messages `turn` left out of its window, page by page from the start of the gap down to its
 * end (never into the tail the turn already carries). Enabled by the caller on demand: a long
 * turn opens with no page request.
 */
export function turnMessagesOptions(sessionId: string, target: InspectTarget, turn: Pick<TurnView, "messages" | "messageCount">) {
  const gap = hiddenRange(turn.messages, turn.messageCount) ?? { from: turn.messageCount, to: turn.messageCount };
  return infiniteQueryOptions({
    queryKey: inspectorKeys.messages(sessionId, target, turn.messageCount),
    queryFn: async ({ pageParam, signal }) =>
      (await getJson<{ page: InspectedMessagesPage }>(inspectMessagesUrl(sessionId, target, pageParam, Math.min(MESSAGE_PAGE_SIZE, gap.to - pageParam)), { signal })).page,
    initialPageParam: gap.from,
    getNextPageParam: (last: InspectedMessagesPage) => {
      const next = last.offset + last.messages.length;
      return last.messages.length > 0 && next < gap.to ? next : undefined;
    },
    // A recorded call's list is stored as it was sent: its pages never change (invalidateSession
    // keeps them too); a rebuilt entry's may after a prune; the preview's with every change.
    staleTime: target.kind === "call" ? Number.POSITIVE_INFINITY : target.kind === "preview" ? 0 : 30_000,
  });
}
