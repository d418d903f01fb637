/**
 * POST /api/sessions/[id]/navigate — move the session to another entry, optionally summarizing
 * the branch being left (spec §11.4; lib/chat/navigation-run.ts).
 *
 * Body `{ targetId, summarize: boolean, customInstructions? }`. 200: a UI message stream with
 * `data-branchSummary` start / delta / end (when summarizing), `data-entry` for the stored
 * branch summary, `data-navigated { leafId, previousLeafId, editorText?, cancelled, aborted?,
 * summaryEntryId? }`, or `data-error` ("Already at this point", "Entry … not found", …).
 * Aborting the request (or POST /api/chat/stop) cancels the summary and nothing is written.
 * 400 bad body, 404 unknown session, 409 when something is already running, 413 over 1 MB.
 */
import { z } from "zod";
import { parseJsonBody } from "@/lib/chat/http";
import { startNavigation } from "@/lib/chat/navigation-run";

export const dynamic = "force-dynamic";

const navigateBodySchema = z
  .object({
    targetId: z.string({ error: "expected the id of the target entry" }).trim().min(1, { error: "expected the id of the target entry" }),
    summarize: z.boolean({ error: "expected summarize to be true or false" }),
    customInstructions: z
      .string({ error: "expected the custom instructions as text" })
      .trim()
      .max(10_000, { error: "the custom instructions are too long (at most 10000 characters)" })
      .optional(),
  })
  .strict();

export async function POST(request: Request, ctx: { params: Promise<{ id: string }> }): Promise<Response> {
  const { id } = await ctx.params;
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
}
