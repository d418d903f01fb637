/**
 * GET /api/sessions/[id]/inspect — what the model saw, as the Context inspector shows it:
 * 200 `{ turn: TurnView }` (lib/types/inspector.ts) for exactly one of
 * - `?entry=<assistantEntryId>`: the recorded call that produced the entry, else a
 *   reconstruction from the session (origin "reconstructed", with a note saying so);
 * - `?call=<callId>`: a recorded call (any kind);
 * - `?preview=1`: what the next turn will send if the user sends now, including pending pruning
 *   and a pending automatic compaction (origin "preview"), for the session's chat model.
 * Each view carries its diff against the previous turn. A turn of more than MESSAGE_WINDOW_MAX
 * messages carries its first and last pages only, with `messageCount`; the rest come from
 * GET …/inspect/messages (lib/inspector/message-window.ts). 400 `{ error }` for a malformed or
 * ambiguous query, 404 for an unknown session / entry / call, 422 when the entry is not an
 * assistant message (nothing was sent to the model for it), 503 when the database is unreachable.
 * At most two statements when the read model is current (lib/inspector/inspect.ts).
 */
import { NextResponse } from "next/server";
import { inspectTurn } from "@/lib/inspector/inspect";
import type { InspectTarget } from "@/lib/types/inspector";
import { loadPrompts } from "@/lib/llm/prompts";
import { refuseAnonymous } from "@/lib/auth/guard";
import { invalid, sessionParamsSchema, sessionRoute } from "../preamble";
import { configureNextTurn, targetFields, targetSchema, toTarget, turnMissing } from "./target";

export const dynamic = "force-dynamic";

export async function GET(request: Request, ctx: { params: Promise<{ id: string }> }) {
  const refused = await refuseAnonymous(request);
  if (refused) return refused;
  return sessionRoute(ctx, sessionParamsSchema, async ({ id }) => {
    const query = targetSchema.safeParse(targetFields(new URL(request.url).searchParams));
    if (!query.success) return invalid(query.error);
    return answer(id, toTarget(query.data));
  });
}

async function answer(id: string, target: InspectTarget): Promise<Response> {
  const turn = await inspectTurn({ sessionId: id, prompts: loadPrompts(), target, configure: configureNextTurn });
  if (turn === null || turn === "not_assistant") return turnMissing(id, target, turn);
  return NextResponse.json({ turn }, { headers: { "cache-control": "no-store" } });
}
