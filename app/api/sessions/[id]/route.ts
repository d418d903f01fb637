/**
 * GET /api/sessions/[id] — the session's metadata as JSON: 200 `{ session: SessionMeta }`.
 * GET /api/sessions/[id]?format=jsonl — the session as a v3 JSONL file, streamed from the store,
 * `content-disposition: attachment; filename="<exportFileName>"` (spec §1.9).
 * 404 `{ error }` for an unknown (or deleted) session, 400 `{ error }` for an unknown format.
 */
import { NextResponse } from "next/server";
import { z } from "zod";
import { exportSession, findSessionMeta, NotFoundError } from "@/lib/db/session-store";

export const dynamic = "force-dynamic";

const formatSchema = z.enum(["json", "jsonl"], { message: "format must be json or jsonl" }).default("json");

function notFound(id: string) {
  return NextResponse.json({ error: `Session ${id} not found` }, { status: 404 });
}

/** RFC 6266: a plain ASCII filename, plus filename* for anything else. */
function attachment(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

export async function GET(request: Request, ctx: { params: Promise<{ id: string }> }) {
  const { id } = await ctx.params;
  const format = formatSchema.safeParse(new URL(request.url).searchParams.get("format") ?? undefined);
  if (!format.success) return NextResponse.json({ error: format.error.issues[0]?.message }, { status: 400 });

  const meta = await findSessionMeta({ id });
  if (!meta || meta.deletedAt) return notFound(id);
  if (format.data === "json") return NextResponse.json({ session: meta });

  try {
    const file = await exportSession({ sessionId: id });
    return new Response(file.stream(), {
      headers: {
        "content-type": "application/x-ndjson; charset=utf-8",
        "content-disposition": attachment(file.fileName),
        "cache-control": "no-store",
        "x-content-type-options": "nosniff",
      },
    });
  } catch (error) {
    if (error instanceof NotFoundError) return notFound(id);
    throw error;
  }
}
