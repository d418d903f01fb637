/**
 * TanStack Query keys and queryOptions for the context inspector (conventions rule 7).
 *
 * Every key lives under `keys.session(id)` (["session", id, "inspector", …]), so whatever
 * invalidates a session's data after a turn, a compaction or a navigation also refreshes the
 * inspector. Data comes from the JSON routes:
 * - GET /api/sessions/[id]/calls              → ModelCallSummary[]
 * - GET /api/sessions/[id]/inspect?entry= | ?call= | ?preview=1 → TurnView
 */
import { queryOptions } from "@tanstack/react-query";
import type { ModelCallSummary, TurnView } from "@/lib/inspector/types";
import { getJson, keys } from "./keys";

/** What the Context tab shows. */
export type InspectTarget = { kind: "entry"; entryId: string } | { kind: "call"; callId: string } | { kind: "preview" };

export const inspectorKeys = {
  all: (sessionId: string) => [...keys.session(sessionId), "inspector"] as const,
  calls: (sessionId: string) => [...inspectorKeys.all(sessionId), "calls"] as const,
  turn: (sessionId: string, target: InspectTarget) =>
    [...inspectorKeys.all(sessionId), "turn", target.kind, target.kind === "entry" ? target.entryId : target.kind === "call" ? target.callId : ""] as const,
};

const base = (sessionId: string) => `/api/sessions/${encodeURIComponent(sessionId)}`;

export function inspectUrl(sessionId: string, target: InspectTarget): string {
  const q =
    target.kind === "entry"
      ? `entry=${encodeURIComponent(target.entryId)}`
      : target.kind === "call"
        ? `call=${encodeURIComponent(target.callId)}`
        : "preview=1";
  return `${base(sessionId)}/inspect?${q}`;
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
