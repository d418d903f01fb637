/**
 * GET /api/sessions/[id]/tree: the session's metadata and every entry (file order) with the stored
 * leaf, from the read model (lib/db/read-model: one version query when cached). 400 for a malformed id, 404 for an unknown session, 503 when the database is unreachable.
 */
import { NextResponse } from "next/server";
import { withDatabaseErrors } from "@/lib/chat/http";
import { NotFoundError } from "@/lib/db/errors";
import { readSession } from "@/lib/db/read-model";
import { invalid, sessionParamsSchema } from "../calls/params";
import { refuseAnonymous } from "@/lib/auth/guard";

export const dynamic = "force-dynamic";

export async function GET(request: Request, ctx: { params: Promise<{ id: string }> }) {
  const refused = await refuseAnonymous(request);
  if (refused) return refused;
  const params = sessionParamsSchema.safeParse(await ctx.params);
  if (!params.success) return invalid(params.error);
  const { id } = params.data;
  return withDatabaseErrors(async () => {
    const view = await readSession({ sessionId: id }).catch((error: unknown) => {
      if (error instanceof NotFoundError) return null;
      throw error;
    });
    if (!view || view.meta.deletedAt) return NextResponse.json({ error: `Session ${id} not found` }, { status: 404 });
    return NextResponse.json({ session: view.meta, entries: view.tree.getEntries() });
  });
}
