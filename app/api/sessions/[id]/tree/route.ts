/**
 * GET /api/sessions/[id]/tree: the session's metadata and every entry (file order) with the stored
 * leaf — the whole session, for tools and tests (the session page uses …/skeleton and
 * …/entries instead). 400 for a malformed id, 404 for an unknown session, 503 when the database
 * is unreachable.
 */
import { z } from "zod";
import { refuseAnonymous } from "@/lib/auth/guard";
import { sessionViewRoute } from "../preamble";

export const dynamic = "force-dynamic";

export async function GET(request: Request, ctx: { params: Promise<{ id: string }> }) {
  const refused = await refuseAnonymous(request);
  if (refused) return refused;
  return sessionViewRoute(request, ctx, z.object({}), (view) => ({ session: view.meta, entries: view.tree.getEntries() }));
}
