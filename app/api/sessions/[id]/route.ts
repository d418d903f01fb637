/**
 * GET /api/sessions/[id] — the session's metadata as JSON: 200 `{ session: SessionMeta }`.
 * GET /api/sessions/[id]?format=jsonl — the session as a v3 JSONL file, streamed from the store,
 * `content-disposition: attachment; filename="<exportFileName>"` (session-engine.md §1.9).
 * GET /api/sessions/[id]?format=html — the session as one self-contained HTML page
 * (lib/export-html), as an attachment named like the JSONL export with `.html`.
 * 404 `{ error, code }` for an unknown (or deleted) session, 400 for a malformed id or an
 * unknown format, 503 when the database is unreachable.
 */
import { attachmentHeader } from "@/lib/http/attachment";
import { NextResponse } from "next/server";
import { z } from "zod";
import { exportSession, findLiveSession, NotFoundError, readSession } from "@/lib/db";
import { CONTENT_SECURITY_POLICY, htmlExportFileName, renderSessionHtml } from "@/lib/export-html/render-session-html";
import { refuseAnonymous } from "@/lib/auth/guard";
import { invalid, sessionParamsSchema, sessionRoute } from "./preamble";
import { sessionNotFound } from "@/lib/http/route-helpers";

export const dynamic = "force-dynamic";

const formatSchema = z.enum(["json", "jsonl", "html"], { message: "format must be json, jsonl or html" }).default("json");


export async function GET(request: Request, ctx: { params: Promise<{ id: string }> }) {
  const refused = await refuseAnonymous(request);
  if (refused) return refused;
  return sessionRoute(ctx, sessionParamsSchema, async ({ id }) => {
    const format = formatSchema.safeParse(new URL(request.url).searchParams.get("format") ?? undefined);
    if (!format.success) return invalid(format.error);
    return answer(id, format.data);
  });
}

async function answer(id: string, format: z.output<typeof formatSchema>): Promise<Response> {
  const meta = await findLiveSession({ id });
  if (!meta) return sessionNotFound(id);
  if (format === "json") return NextResponse.json({ session: meta });

  try {
    if (format === "html") {
      const entries = (await readSession({ sessionId: id })).tree.getEntries();
      const html = renderSessionHtml({ header: meta.header, entries, leafId: meta.leafId, title: meta.title ?? "Untitled session" });
      const timestamp = typeof meta.header.timestamp === "string" ? meta.header.timestamp : meta.createdAt;
      return new Response(html, {
        headers: {
          "content-type": "text/html; charset=utf-8",
          "content-disposition": attachmentHeader(htmlExportFileName(timestamp, id)),
          "content-security-policy": CONTENT_SECURITY_POLICY,
          "cache-control": "no-store",
          "x-content-type-options": "nosniff",
        },
      });
    }
    const file = await exportSession({ sessionId: id });
    return new Response(file.stream(), {
      headers: {
        "content-type": "application/x-ndjson; charset=utf-8",
        "content-disposition": attachmentHeader(file.fileName),
        "cache-control": "no-store",
        "x-content-type-options": "nosniff",
      },
    });
  } catch (error) {
    if (error instanceof NotFoundError) return sessionNotFound(id);
    throw error;
  }
}
