/**
 * Small HTTP helpers of the chat routes: JSON errors, a size-capped JSON body reader, and a
 * stream wrapper that notices when the client cancels. Server-side, framework-free (plain
 * Request / Response, so route handlers are testable with `new Request(...)`).
 */
import type { z } from "zod";

/** Request bodies above this are refused with 413. */
export const MAX_BODY_BYTES = 1024 * 1024;

export type ErrorCode = "invalid_input" | "not_found" | "busy" | "too_large" | "unavailable";

export function jsonError(status: number, error: string, code: ErrorCode): Response {
  return Response.json({ error, code }, { status, headers: { "cache-control": "no-store" } });
}

export type BodyResult<T> = { ok: true; value: T } | { ok: false; response: Response };

function tooLarge(limit: number): Response {
  return jsonError(413, `The request body is larger than ${Math.round(limit / 1024)} KB`, "too_large");
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

/** Parses a JSON body with `schema`: 413 when too large, 400 for bad JSON or a schema failure. */
export async function parseJsonBody<S extends z.ZodType>(
  request: Request,
  schema: S,
  limit = MAX_BODY_BYTES,
): Promise<BodyResult<z.output<S>>> {
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
