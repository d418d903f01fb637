/**
 * GET /api/sessions/[id]/original — "Download original": the file the session was imported
 * from, byte for byte, whatever its format (pi, Claude Code, Codex), as an attachment under its
 * own file name. The file is the user's own, as it was: its secrets are NOT masked, so the page
 * first asks `?count=secrets` → 200 `{ secrets: N }` (the file scanned as it is, docs/secrets.md)
 * and says so before the download.
 * 404 `{ error }` for an unknown or deleted session, or one with no stored original (created in
 * Arbor, or imported before originals were kept); 400 for a malformed id or `count` value.
 */
import { attachmentHeader } from "@/lib/http/attachment";
import { jsonError } from "@/lib/http/json-error";
import { findLiveSession, findSessionSource } from "@/lib/db";
import { refuseAnonymous } from "@/lib/auth/guard";
import { NextResponse } from "next/server";
import { countSecretsInBytes } from "@/lib/secrets";
import { sessionNotFound } from "@/lib/http/route-helpers";
import { sessionParamsSchema, sessionRoute } from "../preamble";
import { downloadContentSecurityPolicy } from "@/lib/http/security-headers";
import { env } from "@/lib/env";

export const dynamic = "force-dynamic";


export async function GET(request: Request, ctx: { params: Promise<{ id: string }> }) {
  const refused = await refuseAnonymous(request);
  if (refused) return refused;
  const count = new URL(request.url).searchParams.get("count");
  if (count !== null && count !== "secrets") return jsonError(400, "count must be secrets", "invalid_input");
  return sessionRoute(ctx, sessionParamsSchema, async ({ id }) => {
    const meta = await findLiveSession({ id });
    if (!meta) return sessionNotFound(id);
    const source = await findSessionSource({ sessionId: id });
    if (!source) return jsonError(404, `Session ${id} has no original file stored`, "not_found");
    if (count === "secrets") {
      return NextResponse.json({ secrets: await countSecretsInBytes(source.chunks()) }, { headers: { "cache-control": "no-store" } });
    }
    return new Response(source.stream(), {
      headers: {
        "content-type": "application/octet-stream",
        "content-length": String(source.bytes),
        "content-disposition": attachmentHeader(source.fileName),
        "cache-control": "no-store",
        "x-content-type-options": "nosniff",
        "content-security-policy": downloadContentSecurityPolicy(env.NODE_ENV !== "production"),
      },
    });
  });
}
