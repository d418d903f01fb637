/**
 * POST /api/sessions/[id]/navigate — move the session to another entry, optionally summarizing
 * the branch being left (session-engine.md §11.4; lib/chat/navigation-run.ts).
 *
 * Body `{ targetId, summarize: boolean, customInstructions? }`. 200: a UI message stream with
 * `data-branchSummary` start / delta / end (when summarizing), `data-entry` for the stored
 * branch summary, `data-navigated { leafId, previousLeafId, editorText?, cancelled, aborted?,
 * summaryEntryId? }`, or `data-error` ("Already at this point", "Entry … not found", …).
 * Aborting the request (or POST /api/chat/stop) cancels the summary and nothing is written.
 * 400 bad body or id, 404 unknown session, 409 when something is already running, 413 over 1 MB,
 * 415 for a body that is not JSON, 503 when the database is unreachable.
 */
import { z } from "zod";
import { parseJsonBody } from "@/lib/http/route-helpers";
import { sessionParamsSchema, sessionRoute } from "../preamble";
import { entryIdSchema } from "@/lib/id-schema";
import { startNavigation } from "@/lib/chat/navigation-run";
import { refuseAnonymous } from "@/lib/auth/guard";

export const dynamic = "force-dynamic";

const navigateBodySchema = z
  .object({
    targetId: z
      .string({ error: "expected the id of the target entry" })
      .trim()
      .min(1, { error: "expected the id of the target entry" })
      .pipe(entryIdSchema),
    summarize: z.boolean({ error: "expected summarize to be true or false" }),
    customInstructions: z
      .string({ error: "expected the custom instructions as text" })
      .trim()
      .max(10_000, { error: "the custom instructions are too long (at most 10000 characters)" })
      .optional(),
  })
  .strict();

export async function POST(request: Request, ctx: { params: Promise<{ id: string }> }): Promise<Response> {
  const refused = await refuseAnonymous(request);
  if (refused) return refused;
  return sessionRoute(ctx, sessionParamsSchema, async ({ id }) => {
    const body = await parseJsonBody(request, navigateBodySchema);
    if (!body.ok) return body.response;
    const { targetId, summarize, customInstructions } = body.value;
    return startNavigation({
      sessionId: id,
      targetId,
      summarize,
      signal: request.signal,
      ...(customInstructions ? { customInstructions } : {}),
    });
  });
}
