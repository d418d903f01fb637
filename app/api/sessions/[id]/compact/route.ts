/**
 * Manual compaction of a session (session-engine.md §13.4; lib/chat/compaction-run.ts).
 *
 * GET ?focus=… — the preview, without a model call: 200 `{ canCompact: false, reason, model }`
 * or `{ canCompact: true, firstKeptEntryId, isSplitTurn, counts: { summarized, turnPrefix,
 * kept }, tokensBefore, summarizedTokens, keptTokens (chars/4 estimates), hasPreviousSummary,
 * readFiles, modifiedFiles, focus?, model: { ref, label, hasApiKey, offline } }`; 404 unknown
 * session.
 * POST `{ focus? }` — runs the compaction (a running turn is stopped first) and streams a UI
 * message stream: `data-compaction` start / delta (summary text) / end, `data-entry` for the
 * saved compaction, `data-usage`, `data-error` with the §13.4 message on failure. Aborting the
 * request (or POST /api/chat/stop) cancels it and nothing is written. 400 bad body or id, 404
 * unknown session, 409 when a compaction or navigation is already running, 413 body over 1 MB,
 * 415 a body that is not JSON, 503 when the database is unreachable (GET too).
 */
import { z } from "zod";
import { startManualCompaction, previewCompaction } from "@/lib/chat/compaction-run";
import { describeIssues, jsonError, parseJsonBody } from "@/lib/http/route-helpers";
import { type RouteContext, sessionParamsSchema, sessionRoute } from "../preamble";
import { refuseAnonymous } from "@/lib/auth/guard";

export const dynamic = "force-dynamic";

type Ctx = RouteContext<{ id: string }>;

const focusSchema = z
  .string({ error: "expected the focus as text" })
  .trim()
  .max(10_000, { error: "the focus is too long (at most 10000 characters)" })
  .optional()
  .transform((s) => (s ? s : undefined));

const compactBodySchema = z.object({ focus: focusSchema }).strict().optional();

export async function GET(request: Request, ctx: Ctx): Promise<Response> {
  const refused = await refuseAnonymous(request);
  if (refused) return refused;
  return sessionRoute(ctx, sessionParamsSchema, async ({ id }) => {
    const focus = focusSchema.safeParse(new URL(request.url).searchParams.get("focus") ?? undefined);
    if (!focus.success) return jsonError(400, describeIssues(focus.error), "invalid_input");
    return previewCompaction({ sessionId: id, ...(focus.data ? { focus: focus.data } : {}) });
  });
}

export async function POST(request: Request, ctx: Ctx): Promise<Response> {
  const refused = await refuseAnonymous(request);
  if (refused) return refused;
  return sessionRoute(ctx, sessionParamsSchema, async ({ id }) => {
    const body = await parseJsonBody(request, compactBodySchema);
    if (!body.ok) return body.response;
    const focus = body.value?.focus;
    return startManualCompaction({ sessionId: id, signal: request.signal, ...(focus ? { focus } : {}) });
  });
}
