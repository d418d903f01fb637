/**
 * GET /api/sessions/[id]/calls/[callId] — one recorded model call in full, for scripts:
 * 200 `{ call: ModelCallDetail }` (lib/types/inspector.ts): the request exactly as sent
 * (system, messages in order — each with its content hash and, when matched, sourceEntryId —
 * tools, settings), the response (assistant message or summary text, usage, stopReason,
 * errorMessage), timing, the produced entryId, previousCallId (for a diff) and how the list is
 * stored. 404 `{ error }` for an unknown session or a call of another session, 400 for a
 * malformed id (the call id is a UUID).
 */
import { NextResponse } from "next/server";
import { callDetail, callsContext, detailHashes } from "@/lib/inspector/calls";
import { callBodies } from "@/lib/inspector/bodies";
import { loadPrompts } from "@/lib/llm/prompts";
import { jsonError } from "@/lib/http/json-error";
import { callParamsSchema, sessionRoute } from "../../preamble";
import { sessionNotFound } from "@/lib/http/route-helpers";
import { refuseAnonymous } from "@/lib/auth/guard";

export const dynamic = "force-dynamic";

export async function GET(request: Request, ctx: { params: Promise<{ id: string; callId: string }> }) {
  const refused = await refuseAnonymous(request);
  if (refused) return refused;
  return sessionRoute(ctx, callParamsSchema, async ({ id, callId }) => {
    const calls = await callsContext(id, loadPrompts());
    if (!calls) return sessionNotFound(id);
    const row = calls.calls.find((c) => c.id === callId);
    if (!row) return jsonError(404, `Model call ${callId} not found in session ${id}`, "not_found");
    const call = callDetail(calls, row, await callBodies([row], detailHashes(row)));
    return NextResponse.json({ call }, { headers: { "cache-control": "no-store" } });
  });
}
