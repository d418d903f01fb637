/**
 * GET /api/sessions/[id]/compactions/[entryId] — what the inspector shows beside a compaction
 * (docs/engine.md "Arbor extensions around compaction"): 200 `{ review: CompactionReview }` (lib/compaction/compaction-review.ts) — the
 * compaction and its siblings (the other summaries of the same span), each with summary, token
 * counts and fact check, and whether it can be undone now. Read-only.
 * 400 malformed ids, 404 unknown session or an entry that is not a compaction, 503 when the
 * database is unreachable.
 */
import { NextResponse } from "next/server";
import { refuseAnonymous } from "@/lib/auth/guard";
import { reviewCompaction } from "@/lib/compaction/compaction-review";
import { readLiveSession } from "@/lib/db";
import { jsonError } from "@/lib/http/json-error";
import { entryParamsSchema, sessionRoute } from "../../preamble";
import { sessionNotFound } from "@/lib/http/route-helpers";

export const dynamic = "force-dynamic";

export async function GET(request: Request, ctx: { params: Promise<{ id: string; entryId: string }> }) {
  const refused = await refuseAnonymous(request);
  if (refused) return refused;
  return sessionRoute(ctx, entryParamsSchema, async ({ id, entryId }) => {
    const loaded = await readLiveSession({ sessionId: id });
    if (!loaded) return sessionNotFound(id);
    const review = reviewCompaction(loaded.tree, entryId);
    if (!review) return jsonError(404, `Entry ${entryId} is not a compaction of session ${id}`, "not_found");
    return NextResponse.json({ review }, { headers: { "cache-control": "no-store" } });
  });
}
