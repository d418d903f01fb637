/**
 * Small HTTP helpers of the route handlers: JSON errors (the one helper, lib/http/json-error.ts), a size-capped JSON body reader, a
 * stream wrapper that notices when the client cancels, and `withDatabaseErrors`, which answers
 * a lost database with 503 and a plain message instead of a 500. Server-side, framework-free
 * (plain Request / Response, so route handlers are testable with `new Request(...)`).
 */
import type { z } from "zod";
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable } from "@/lib/db";
import { jsonError } from "@/lib/http/json-error";
import { formatBytes } from "@/lib/text/byte-size";

/** Request bodies above this are refused with 413. */
export const MAX_BODY_BYTES = 1024 * 1024;

export { type ErrorCode, jsonError } from "@/lib/http/json-error";

/** 404 for a session id that names no live session: the one wording of every route. */
export function sessionNotFound(id: string): Response {
  return jsonError(404, `Session ${id} not found`, "not_found");
}

/** 503 "The database is not reachable — retrying may help" when `error` is a lost database. */
export function databaseUnavailable(error: unknown): Response | undefined {
  if (!isDatabaseUnavailable(error)) return undefined;
  return jsonError(503, DATABASE_UNAVAILABLE_MESSAGE, "database_unavailable", { "retry-after": "5" });
}

/**
 * Runs a route handler's work: a lost database (server stopped or restarting) becomes a 503
 * with a plain message; any other error is rethrown (a bug: Next answers 500 and logs it).
 */
export async function withDatabaseErrors(work: () => Promise<Response>): Promise<Response> {
  try {
    return await work();
  } catch (error) {
    const response = databaseUnavailable(error);
    if (response) return response;
    throw error;
  }
}

export type BodyResult<T> = { ok: true; value: T } | { ok: false; response: Response };

function tooLarge(limit: number): Response {
  return jsonError(413, `The request body is larger than ${formatBytes(limit)}`, "too_large");
}

/** Reads the body as text, refusing more than `limit` bytes (declared or actually sent). */
async function readCapped(request: Request, limit: number): Promise<BodyResult<string>> {
  const declared = Number(request.headers.get("content-length") ?? "");
  if (Number.isFinite(declared) && declared > limit) return { ok: false, response: tooLarge(limit) };
  if (!request.body) return { ok: true, value: "" };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return { ok: false, response: tooLarge(limit) };
    }
    chunks.push(value);
  }
  return { ok: true, value: Buffer.concat(chunks).toString("utf8") };
}

/** The first issue of a zod error as one sentence ("message.parts: …"). */
export function describeIssues(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "Invalid request body";
  const where = issue.path.length > 0 ? `${issue.path.join(".")}: ` : "";
  return `${where}${issue.message}`;
}

/** `application/json` or any `+json` type (parameters such as charset allowed). */
const JSON_TYPE = /^application\/([\w.-]+\+)?json\s*(;|$)/i;

/**
 * 415 for a body not declared as JSON — a missing type included. Besides a clear message for a
 * client that sent a form or text, it keeps cross-site pages from posting here: a plain HTML
 * form or a "simple" fetch can only send form or text bodies, never `application/json`,
 * without a CORS preflight (which Arbor never grants). The Origin check (proxy.ts) is the
 * first line; this is the second.
 */
function wrongContentType(request: Request): Response | undefined {
  const type = request.headers.get("content-type")?.trim() ?? "";
  if (JSON_TYPE.test(type)) return undefined;
  const sent = type === "" ? "; it was sent without a content type" : `, not ${type.split(";")[0]?.trim() || type}`;
  return jsonError(415, `The request body must be JSON (content-type: application/json)${sent}`, "unsupported_media_type");
}

/**
 * Parses a JSON body with `schema`: 415 when it is not declared as JSON (a missing type too),
 * 413 when too large, 400 for bad JSON or a schema failure.
 */
export async function parseJsonBody<S extends z.ZodType>(
  request: Request,
  schema: S,
  limit = MAX_BODY_BYTES,
): Promise<BodyResult<z.output<S>>> {
  const unsupported = wrongContentType(request);
  if (unsupported) {
    await request.body?.cancel().catch(() => undefined);
    return { ok: false, response: unsupported };
  }
  const text = await readCapped(request, limit);
  if (!text.ok) return text;
  let json: unknown;
  try {
    json = text.value === "" ? undefined : JSON.parse(text.value);
  } catch {
    return { ok: false, response: jsonError(400, "The request body is not valid JSON", "invalid_input") };
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) return { ok: false, response: jsonError(400, describeIssues(parsed.error), "invalid_input") };
  return { ok: true, value: parsed.data };
}

/** The same stream, calling `onCancel` when its reader cancels (the client went away). */
export function withCancel<T>(stream: ReadableStream<T>, onCancel: () => void): ReadableStream<T> {
  const reader = stream.getReader();
  return new ReadableStream<T>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    async cancel(reason) {
      onCancel();
      await reader.cancel(reason).catch(() => undefined);
    },
  });
}
