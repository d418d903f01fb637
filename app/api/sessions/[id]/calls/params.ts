/**
 * Route parameters of the inspector routes (GET /api/sessions/[id]/calls…, …/inspect), validated
 * with zod, and the JSON error responses they share. A malformed id is a 400; a well-formed id
 * that names nothing is a 404 (every body is `{ error }`).
 */
import { NextResponse } from "next/server";
import { z } from "zod";
import { idSchema } from "@/lib/id-schema";

/** Session ids are kept from imported files, so any short printable string is accepted. */
export const sessionIdSchema = idSchema("session");
/** Call ids are v4 UUIDs (lib/db/model-calls.ts). */
export const callIdSchema = z.uuid({ message: "call id must be a UUID" });
/** Entry ids are session-scoped strings (spec §1.6). */
export const entryIdSchema = idSchema("entry");

export const sessionParamsSchema = z.object({ id: sessionIdSchema });
export const callParamsSchema = z.object({ id: sessionIdSchema, callId: callIdSchema });

export function jsonError(status: 400 | 404 | 422, error: string) {
  return NextResponse.json({ error }, { status, headers: { "cache-control": "no-store" } });
}

export function invalid(error: z.ZodError) {
  return jsonError(400, error.issues[0]?.message ?? "invalid request");
}

export function sessionNotFound(id: string) {
  return jsonError(404, `Session ${id} not found`);
}
