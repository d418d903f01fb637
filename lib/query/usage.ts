/**
 * The session's cost for the canvas (GET /api/sessions/[id]/usage: own and subagents' totals,
 * each branch segment's cost), under `keys.session(id)` so a turn or a navigation refreshes it.
 */
import { queryOptions } from "@tanstack/react-query";
import type { BranchCost } from "@/lib/usage/branches";
import type { SummaryCallCost } from "@/lib/usage/compaction-effect";
import type { CostPart } from "@/lib/usage/session-label";
import { getJson, keys } from "./keys";

export interface SessionUsageWire {
  own: CostPart & { calls: number };
  subagents: CostPart & { calls: number; sessions: number };
  branches: BranchCost[];
  /** Each compaction's and branch summary's own model call (the chat's cards). */
  summaryCalls: (SummaryCallCost & { entryId: string })[];
}

export function sessionUsageOptions(sessionId: string) {
  return queryOptions({
    queryKey: [...keys.session(sessionId), "usage"] as const,
    queryFn: ({ signal }) => getJson<SessionUsageWire>(`/api/sessions/${encodeURIComponent(sessionId)}/usage`, { signal }),
    staleTime: 30_000,
  });
}
