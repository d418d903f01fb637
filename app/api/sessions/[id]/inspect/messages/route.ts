/**
 * GET /api/sessions/[id]/inspect/messages?<turn>&offset=<n>&limit=<n> — one page of a turn's
 * messages, for a turn too long to be sent whole with its view (lib/inspector/message-window.ts).
 * `<turn>` is exactly one of `entry=<assistantEntryId>`, `call=<callId>` or `preview=1`, as for
 * GET …/inspect; `limit` is 1 to MESSAGE_PAGE_MAX (default MESSAGE_PAGE_SIZE), `offset` 0 or more.
 * 200 `{ page: InspectedMessagesPage }`: messages [offset, offset + limit) of the turn, each
 * exactly as the turn's view carries it (index, tokens, "kept" markers, source entry), and the
 * turn's `total`. 400 `{ error }` for a malformed query or an offset past the turn's end, 404
 * for an unknown session / entry / call, 422 for an entry that is not an assistant message,
 * 503 when the database is unreachable. Reads: lib/inspector/message-pages.ts.
 */
import { NextResponse } from "next/server";
import { z } from "zod";
import { jsonError } from "@/lib/http/json-error";
import { inspectMessagesPage } from "@/lib/inspector/message-pages";
import { MESSAGE_PAGE_MAX, MESSAGE_PAGE_SIZE } from "@/lib/inspector/message-window";
import type { InspectTarget } from "@/lib/types/inspector";
import { loadPrompts } from "@/lib/llm/prompts";
import { refuseAnonymous } from "@/lib/auth/guard";
import { invalid, sessionParamsSchema, sessionRoute } from "../../preamble";
import { configureNextTurn, targetFields, targetSchema, toTarget, turnMissing } from "../target";

export const dynamic = "force-dynamic";

const WHOLE = /^\d{1,9}$/;

const pageSchema = z.object({
  offset: z.string().regex(WHOLE, "offset must be a whole number, 0 or more").transform(Number),
  limit: z
    .string()
    .regex(WHOLE, `limit must be a whole number from 1 to ${MESSAGE_PAGE_MAX}`)
    .transform(Number)
    .refine((n) => n >= 1 && n <= MESSAGE_PAGE_MAX, `limit must be a whole number from 1 to ${MESSAGE_PAGE_MAX}`),
});

export async function GET(request: Request, ctx: { params: Promise<{ id: string }> }) {
  const refused = await refuseAnonymous(request);
  if (refused) return refused;
  return sessionRoute(ctx, sessionParamsSchema, async ({ id }) => {
    const search = new URL(request.url).searchParams;
    const target = targetSchema.safeParse(targetFields(search));
    if (!target.success) return invalid(target.error);
    const page = pageSchema.safeParse({ offset: search.get("offset") ?? "0", limit: search.get("limit") ?? String(MESSAGE_PAGE_SIZE) });
    if (!page.success) return invalid(page.error);
    return answer(id, toTarget(target.data), page.data);
  });
}

async function answer(id: string, target: InspectTarget, page: { offset: number; limit: number }): Promise<Response> {
  const result = await inspectMessagesPage({ sessionId: id, prompts: loadPrompts(), target, ...page, configure: configureNextTurn });
  if (result === null || result === "not_assistant") return turnMissing(id, target, result);
  if ("problem" in result) return jsonError(400, result.problem, "invalid_input");
  return NextResponse.json({ page: result.page }, { headers: { "cache-control": "no-store" } });
}
