/**
 * Route parameters of the inspector routes (GET /api/sessions/[id]/calls…, …/inspect), validated
 * with zod, and the JSON error responses they share. A malformed id is a 400; a well-formed id
 * that names nothing is a 404 (every body is `{ error, code }`, lib/http/json-error.ts).
 */
import { z } from "zod";
import { jsonError } from "@/lib/http/json-error";
import { sessionIdSchema } from "@/lib/id-schema";

/** Call ids are v4 UUIDs (lib/db/model-calls.ts). */
export const callIdSchema = z.uuid({ message: "call id must be a UUID" });

export const sessionParamsSchema = z.object({ id: sessionIdSchema });
export const callParamsSchema = z.object({ id: sessionIdSchema, callId: callIdSchema });

export function invalid(error: z.ZodError) {
  return jsonError(400, error.issues[0]?.message ?? "invalid request", "invalid_input");
}

export function sessionNotFound(id: string) {
  return jsonError(404, `Session ${id} not found`, "not_found");
}
