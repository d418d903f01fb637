/**
 * GET /api/sessions/[id]/calls — the session's recorded model calls, oldest first:
 * 200 `{ calls: ModelCallSummary[] }` (lib/types/inspector.ts: id, seq, kind, model, entryId,
 * startedAt, durationMs, stopReason, errorMessage, usage, promptTokens, messageCount).
 * 404 `{ error }` for an unknown or deleted session, 400 for a malformed id.
 * One statement when the read model is current (the rows ride on its version check).
 */
import { NextResponse } from "next/server";
import { callsContext, summariesOf } from "@/lib/inspector/calls";
import { loadPrompts } from "@/lib/llm/prompts";
import { sessionParamsSchema, sessionRoute } from "../preamble";
import { sessionNotFound } from "@/lib/http/route-helpers";
import { refuseAnonymous } from "@/lib/auth/guard";

export const dynamic = "force-dynamic";

export async function GET(request: Request, ctx: { params: Promise<{ id: string }> }) {
  const refused = await refuseAnonymous(request);
  if (refused) return refused;
  return sessionRoute(ctx, sessionParamsSchema, async ({ id }) => {
    const calls = await callsContext(id, loadPrompts(), { matches: false });
    if (!calls) return sessionNotFound(id);
    return NextResponse.json({ calls: summariesOf(calls) }, { headers: { "cache-control": "no-store" } });
  });
}
