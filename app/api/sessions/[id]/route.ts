/**
 * GET /api/sessions/[id] — the session's metadata as JSON: 200 `{ session: SessionMeta }`.
 * GET /api/sessions/[id]?format=jsonl — the session as a v3 JSONL file, streamed from the store,
 * `content-disposition: attachment; filename="<exportFileName>"` (session-engine.md §1.9).
 * GET /api/sessions/[id]?format=html — the session as one self-contained HTML page
 * (lib/export-html), as an attachment named like the JSONL export with `.html`.
 * Both exports mask the secrets found in the session (docs/secrets.md); `&secrets=include` gives
 * the originals (the page asks the user first).
 * 404 `{ error, code }` for an unknown (or deleted) session, 400 for a malformed id or an
 * unknown format or secrets value, 503 when the database is unreachable.
 */
import { attachmentHeader } from "@/lib/http/attachment";
import { NextResponse } from "next/server";
import { z } from "zod";
import { exportSession, findLiveSession, NotFoundError, readSession } from "@/lib/db";
import { renderExportHtml } from "@/lib/export-html/render-masked";
import { CONTENT_SECURITY_POLICY, htmlExportFileName } from "@/lib/export-html/render-session-html";
import { refuseAnonymous } from "@/lib/auth/guard";
import { invalid, sessionParamsSchema, sessionRoute } from "./preamble";
import { sessionNotFound } from "@/lib/http/route-helpers";
import { downloadContentSecurityPolicy } from "@/lib/http/security-headers";
import { env } from "@/lib/env";

export const dynamic = "force-dynamic";

const formatSchema = z.enum(["json", "jsonl", "html"], { message: "format must be json, jsonl or html" }).default("json");
const secretsSchema = z.enum(["mask", "include"], { message: "secrets must be mask or include" }).default("mask");


export async function GET(request: Request, ctx: { params: Promise<{ id: string }> }) {
  const refused = await refuseAnonymous(request);
  if (refused) return refused;
  return sessionRoute(ctx, sessionParamsSchema, async ({ id }) => {
    const search = new URL(request.url).searchParams;
    const format = formatSchema.safeParse(search.get("format") ?? undefined);
    if (!format.success) return invalid(format.error);
    const secrets = secretsSchema.safeParse(search.get("secrets") ?? undefined);
    if (!secrets.success) return invalid(secrets.error);
    return answer(id, format.data, secrets.data === "include");
  });
}

async function answer(id: string, format: z.output<typeof formatSchema>, includeSecrets: boolean): Promise<Response> {
  const meta = await findLiveSession({ id });
  if (!meta) return sessionNotFound(id);
  if (format === "json") return NextResponse.json({ session: meta });

  try {
    if (format === "html") {
      const entries = (await readSession({ sessionId: id })).tree.getEntries();
      const html = await renderExportHtml({ header: meta.header, entries, leafId: meta.leafId, title: meta.title ?? "Untitled session", includeSecrets });
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
    const file = await exportSession({ sessionId: id, includeSecrets });
    return new Response(file.stream(), {
      headers: {
        "content-type": "application/x-ndjson; charset=utf-8",
        "content-disposition": attachmentHeader(file.fileName),
        "cache-control": "no-store",
        "x-content-type-options": "nosniff",
        "content-security-policy": downloadContentSecurityPolicy(env.NODE_ENV !== "production"),
      },
    });
  } catch (error) {
    if (error instanceof NotFoundError) return sessionNotFound(id);
    throw error;
  }
}
