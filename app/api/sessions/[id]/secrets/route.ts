/**
 * GET /api/sessions/[id]/secrets — the secrets found in the session (docs/secrets.md), in file
 * order: 200 `{ count, findings: [{ entryId, seq, field, path, start, end, rule, kind, masked }] }`.
 * Masked forms only: the values stay in the entries. 404 for an unknown or deleted session,
 * 400 for a malformed id, 503 when the database is unreachable.
 */
import { NextResponse } from "next/server";
import { refuseAnonymous } from "@/lib/auth/guard";
import { findLiveSession, listSecretFindings } from "@/lib/db";
import { sessionNotFound } from "@/lib/http/route-helpers";
import { sessionParamsSchema, sessionRoute } from "../preamble";

export const dynamic = "force-dynamic";

export async function GET(request: Request, ctx: { params: Promise<{ id: string }> }) {
  const refused = await refuseAnonymous(request);
  if (refused) return refused;
  return sessionRoute(ctx, sessionParamsSchema, async ({ id }) => {
    if (!(await findLiveSession({ id }))) return sessionNotFound(id);
    return NextResponse.json(await listSecretFindings({ sessionId: id }), { headers: { "cache-control": "no-store" } });
  });
}
