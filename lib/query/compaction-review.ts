/**
 * Query options for the compaction review beside a compaction in the inspector (docs/engine.md "Arbor extensions around compaction"):
 * GET /api/sessions/[id]/compactions/[entryId] → CompactionReview. The key lives under
 * `keys.session(id)`, so whatever refreshes the session (a turn, a compaction, a move) refreshes it.
 */
import { queryOptions } from "@tanstack/react-query";
import type { CompactionReview } from "@/lib/compaction/compaction-review";
import { getJson, keys } from "./keys";

export const compactionReviewKey = (sessionId: string, entryId: string) => [...keys.session(sessionId), "compaction-review", entryId] as const;

export function compactionReviewOptions(sessionId: string, entryId: string) {
  return queryOptions({
    queryKey: compactionReviewKey(sessionId, entryId),
    queryFn: async ({ signal }) =>
      (
        await getJson<{ review: CompactionReview }>(
          `/api/sessions/${encodeURIComponent(sessionId)}/compactions/${encodeURIComponent(entryId)}`,
          { signal },
        )
      ).review,
    staleTime: 5_000,
  });
}
