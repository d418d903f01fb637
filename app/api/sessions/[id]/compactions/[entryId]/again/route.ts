/**
 * POST /api/sessions/[id]/compactions/[entryId]/again — "Compact again with…" (session-engine.md §19.3;
 * lib/chat/compact-again.ts): another compaction of the same span, stored as a sibling of
 * `entryId`, with body `{ focus?, prompt?, model? }` (prompt replaces the summary prompt; model is
 * "provider/modelId" and must be configured); the leaf returns to where it was. Streams like POST …/compact
 * (`data-compaction`, `data-entry`, `data-navigated`, `data-error`); aborting the request cancels
 * it and nothing is written. 400 bad body or ids, 404 unknown session, 409 when something runs,
 * 415 a body that is not JSON, 503 when the database is unreachable.
 */
import { z } from "zod";
import { refuseAnonymous } from "@/lib/auth/guard";
import { startCompactAgain } from "@/lib/chat/compact-again";
import { parseJsonBody } from "@/lib/http/route-helpers";
import { entryParamsSchema, sessionRoute } from "../../../preamble";

export const dynamic = "force-dynamic";

const bodySchema = z
  .object({
    focus: z
      .string({ error: "expected the focus as text" })
      .trim()
      .max(10_000, { error: "the focus is too long (at most 10000 characters)" })
      .optional(),
    prompt: z
      .string({ error: "expected the prompt as text" })
      .trim()
      .max(20_000, { error: "the prompt is too long (at most 20000 characters)" })
      .optional(),
    model: z
      .string({ error: 'expected the model as a "provider/modelId" string' })
      .regex(/^[^/\s]+\/\S+$/, { error: 'expected the model as a "provider/modelId" string' })
      .max(300)
      .optional(),
  })
  .strict();

export async function POST(request: Request, ctx: { params: Promise<{ id: string; entryId: string }> }): Promise<Response> {
  const refused = await refuseAnonymous(request);
  if (refused) return refused;
  return sessionRoute(ctx, entryParamsSchema, async ({ id, entryId }) => {
    const body = await parseJsonBody(request, bodySchema);
    if (!body.ok) return body.response;
    const { focus, prompt, model } = body.value;
    return startCompactAgain({
      sessionId: id,
      compactionId: entryId,
      signal: request.signal,
      ...(focus ? { focus } : {}),
      ...(prompt ? { prompt } : {}),
      ...(model ? { model } : {}),
    });
  });
}
