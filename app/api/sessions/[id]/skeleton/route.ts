/**
 * GET /api/sessions/[id]/skeleton[?since=N] — the session's skeleton (lib/session-view/types
 * `SkeletonPayload`): meta, one small row per entry (no contents), the context meter and the
 * model the next turn will use.
 * `since` = the entry count the client already has: only the entries appended after it
 * (`from` = N); a count the session does not have gives the whole skeleton (`from` = 0).
 * 400 for a malformed id or `since`, 404 for an unknown session, 503 when the database is unreachable.
 */
import { z } from "zod";
import { nextTurnModelOf } from "@/lib/chat/next-model";
import { skeletonPayload } from "@/lib/session-view/server";
import { refuseAnonymous } from "@/lib/auth/guard";
import { sessionViewRoute } from "../session-view";

export const dynamic = "force-dynamic";

const querySchema = z.object({
  since: z.coerce.number({ message: "since must be an entry count" }).int("since must be an entry count").min(0, "since must be an entry count").optional(),
});

export async function GET(request: Request, ctx: { params: Promise<{ id: string }> }) {
  const refused = await refuseAnonymous(request);
  if (refused) return refused;
  return sessionViewRoute(request, ctx, querySchema, async (view, q) => skeletonPayload(view, q.since ?? 0, await nextTurnModelOf(view)));
}
