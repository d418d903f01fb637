/**
 * GET /api/sessions/[id]/search?q=… — session-engine.md §16.3 search of the tree navigator over the whole
 * text of every entry (label, role, content, bash command, summaries…): `{ ids }`, the matching
 * entry ids in file order (`[]` for a query without words). The skeleton carries only clipped
 * row texts, so the search runs here. 400 for a missing or over-long query, 404 for an unknown
 * session, 503 when the database is unreachable.
 */
import { z } from "zod";
import { searchSession } from "@/lib/session-view/server";
import { refuseAnonymous } from "@/lib/auth/guard";
import { sessionViewRoute } from "../preamble";

export const dynamic = "force-dynamic";

const querySchema = z.object({
  q: z.string({ message: "q is the search query" }).max(500, "q may be at most 500 characters"),
});

export async function GET(request: Request, ctx: { params: Promise<{ id: string }> }) {
  const refused = await refuseAnonymous(request);
  if (refused) return refused;
  return sessionViewRoute(request, ctx, querySchema, (view, q) => ({ ids: searchSession(view, q.q) }));
}
