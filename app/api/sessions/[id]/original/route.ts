/**
 * GET /api/sessions/[id]/original — "Download original": the file the session was imported
 * from, byte for byte, whatever its format (pi, Claude Code, Codex), as an attachment under its
 * own file name. 404 `{ error }` for an unknown or deleted session, or one with no stored
 * original (created in Arbor, or imported before originals were kept); 400 for a malformed id.
 */
import { attachmentHeader } from "@/lib/http/attachment";
import { jsonError } from "@/lib/http/json-error";
import { findLiveSession, findSessionSource } from "@/lib/db";
import { refuseAnonymous } from "@/lib/auth/guard";
import { sessionParamsSchema, sessionRoute } from "../preamble";
import { sessionNotFound } from "@/lib/http/route-helpers";

export const dynamic = "force-dynamic";


export async function GET(request: Request, ctx: { params: Promise<{ id: string }> }) {
  const refused = await refuseAnonymous(request);
  if (refused) return refused;
  return sessionRoute(ctx, sessionParamsSchema, async ({ id }) => {
    const meta = await findLiveSession({ id });
    if (!meta) return sessionNotFound(id);
    const source = await findSessionSource({ sessionId: id });
    if (!source) return jsonError(404, `Session ${id} has no original file stored`, "not_found");
    return new Response(source.stream(), {
      headers: {
        "content-type": "application/octet-stream",
        "content-length": String(source.bytes),
        "content-disposition": attachmentHeader(source.fileName),
        "cache-control": "no-store",
        "x-content-type-options": "nosniff",
      },
    });
  });
}
