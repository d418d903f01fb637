/**
 * GET /api/sessions/[id]/entries?ids=a,b,c — the named entries exactly as stored
 * (lib/types/session-page `EntriesPayload`): at most MAX_IDS distinct ids per request; entries past
 * MAX_ENTRIES_BYTES of JSON come back as `deferred` (ask again), unknown ids as `missing`.
 * 400 for a malformed id list, 404 for an unknown session, 503 when the database is unreachable.
 */
import { z } from "zod";
import { entriesPayload, MAX_IDS } from "@/lib/session-view/server";
import { entryIdSchema } from "@/lib/id-schema";
import { refuseAnonymous } from "@/lib/auth/guard";
import { sessionViewRoute } from "../preamble";

export const dynamic = "force-dynamic";

const querySchema = z.object({
  ids: z
    .string({ message: "ids must list entry ids, separated by commas" })
    .transform((v) => [...new Set(v.split(",").filter((id) => id !== ""))])
    .pipe(z.array(entryIdSchema).min(1, "ids must name at least one entry").max(MAX_IDS, `ids may name at most ${MAX_IDS} entries`)),
});

export async function GET(request: Request, ctx: { params: Promise<{ id: string }> }) {
  const refused = await refuseAnonymous(request);
  if (refused) return refused;
  return sessionViewRoute(request, ctx, querySchema, (view, q) => entriesPayload(view, q.ids));
}
