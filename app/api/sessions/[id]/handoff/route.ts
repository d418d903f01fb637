/**
 * "Continue in…" (docs/formats.md "Hand-off"): the path to an entry written in the native format
 * of pi, Claude Code or Codex CLI.
 * - GET `?entry=<id>&format=pi|claude|codex[&secrets=include]`: the file as an attachment.
 * - GET `…&preview=1`: `HandoffPreview` (lib/types/handoff.ts): what the file will not hold, where
 *   "Write" would put it and whether it may, the new session's id and moment to confirm with.
 * - POST `HandoffWriteRequest` (JSON): writes the file into the agent's folder, only at the path
 *   the preview showed and the user confirmed, never over a file: 201 `HandoffWritten`; 400 when
 *   the confirmed path is not the one this hand-off writes, 403 when the agent folder is not one
 *   Arbor may write to, 409 when the file exists.
 * `entry` defaults to the session's leaf. Secrets are masked unless `secrets=include` (docs/secrets.md).
 * 404 for an unknown session or entry, 400 for a bad query or body, 503 without the database.
 * The Host / Origin checks run in proxy.ts, as for every route.
 */
import { NextResponse } from "next/server";
import { z } from "zod";
import { refuseAnonymous } from "@/lib/auth/guard";
import { HANDOFF_LABELS, resumeCommand } from "@/lib/formats/handoff/handoff";
import { prepareHandoff } from "@/lib/handoff/prepare";
import { writeHandoffFile } from "@/lib/handoff/write";
import { attachmentHeader } from "@/lib/http/attachment";
import { jsonError, parseJsonBody, sessionNotFound } from "@/lib/http/route-helpers";
import { entryIdSchema } from "@/lib/id-schema";
import type { HandoffPreview, HandoffWritten } from "@/lib/types/handoff";
import { invalid, sessionParamsSchema, sessionRoute } from "../preamble";

export const dynamic = "force-dynamic";

const formatSchema = z.enum(["pi", "claude", "codex"], { message: "format must be pi, claude or codex" });
const secretsSchema = z.enum(["mask", "include"], { message: "secrets must be mask or include" }).default("mask");

const querySchema = z.object({
  entry: entryIdSchema.optional(),
  format: formatSchema,
  secrets: secretsSchema,
  preview: z.enum(["1"], { message: "preview must be 1" }).optional(),
});

const writeSchema = z.object({
  entry: entryIdSchema,
  format: formatSchema,
  sessionId: z.uuid({ error: "must be the UUID the preview gave" }),
  createdAt: z.iso.datetime({ error: "must be the moment the preview gave" }),
  path: z
    .string({ error: "the path the user confirmed is required" })
    .min(1, { error: "the path the user confirmed is required" })
    .max(4096, { error: "at most 4096 characters" }),
  secrets: secretsSchema,
});

const noStore = { "cache-control": "no-store" };

function missing(kind: "unknown_session" | "unknown_entry", id: string, entry: string | undefined): Response {
  if (kind === "unknown_session") return sessionNotFound(id);
  return jsonError(404, entry ? `Entry ${entry} not found in session ${id}` : `Session ${id} has no entries to hand off`, "not_found");
}

export async function GET(request: Request, ctx: { params: Promise<{ id: string }> }) {
  const refused = await refuseAnonymous(request);
  if (refused) return refused;
  return sessionRoute(ctx, sessionParamsSchema, async ({ id }) => {
    const query = querySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
    if (!query.success) return invalid(query.error);
    const { entry, format, secrets, preview } = query.data;
    const prepared = await prepareHandoff({ sessionId: id, ...(entry ? { entryId: entry } : {}), format, includeSecrets: secrets === "include" });
    if (typeof prepared === "string") return missing(prepared, id, entry);
    const { out, target } = prepared;
    if (preview) {
      const body: HandoffPreview = {
        format,
        label: HANDOFF_LABELS[format],
        entryId: prepared.entryId,
        sessionId: out.sessionId,
        createdAt: prepared.createdAt,
        fileName: out.fileName,
        path: target.path,
        writable: target.writable,
        ...(target.why ? { why: target.why } : {}),
        notes: out.notes,
        resume: resumeCommand(out),
        bytes: Buffer.byteLength(out.text),
      };
      return NextResponse.json(body, { headers: noStore });
    }
    return new Response(out.text, {
      headers: { ...noStore, "content-type": "application/x-ndjson; charset=utf-8", "content-disposition": attachmentHeader(out.fileName), "x-content-type-options": "nosniff" },
    });
  });
}

export async function POST(request: Request, ctx: { params: Promise<{ id: string }> }) {
  const refused = await refuseAnonymous(request);
  if (refused) return refused;
  return sessionRoute(ctx, sessionParamsSchema, async ({ id }) => {
    const body = await parseJsonBody(request, writeSchema);
    if (!body.ok) return body.response;
    const { entry, format, sessionId, createdAt, path, secrets } = body.value;
    const prepared = await prepareHandoff({ sessionId: id, entryId: entry, format, includeSecrets: secrets === "include", newSessionId: sessionId, createdAt });
    if (typeof prepared === "string") return missing(prepared, id, entry);
    const written = await writeHandoffFile(prepared, path);
    if (!written.ok) return jsonError(written.code === "mismatch" ? 400 : written.code === "exists" ? 409 : 403, written.error, written.code === "mismatch" ? "invalid_input" : written.code);
    const answer: HandoffWritten = { path: written.path, sessionId, resume: resumeCommand(prepared.out) };
    return NextResponse.json(answer, { status: 201, headers: noStore });
  });
}
