/**
 * POST /api/import?fileName=…&asCopy=0|1&title=… — the raw session file is the request body.
 *
 * The body is streamed straight into `importSession` (never buffered whole). The response is
 * NDJSON (lib/types/import-events.ts): throttled `progress` events, then one `done` or `error`. Aborting the
 * request (the browser's Cancel) aborts the import, whose transaction rolls back: nothing saved.
 * Before streaming (bodies `{ error, code }`, lib/http/json-error.ts): 400 for bad parameters or
 * no body, 413 when the Content-Length is over the import limit, 415 unless the body is declared as
 * `application/octet-stream` (what the app sends), `application/x-ndjson` or `application/jsonl`:
 * a form, `text/plain` or a missing type is refused, so no cross-site form or "simple" fetch can
 * reach the import without a CORS preflight. 421/403 (lib/http/guard-request.ts) for a foreign
 * Host or Origin: the proxy skips this route (its body would be cut at 10 MB). A database that is
 * down ends the stream with an `error` event saying so.
 */
import { z } from "zod";
import { DEFAULT_MAX_IMPORT_BYTES, ImportError, type ImportResult, importSession } from "@/lib/db";
import { FORMAT_LABELS } from "@/lib/formats/types";
import type { ImportErrorEvent, ImportEvent } from "@/lib/types/import-events";
import { refuseAnonymous } from "@/lib/auth/guard";
import { refuseForeign } from "@/lib/http/guard-request";
import { jsonError } from "@/lib/http/json-error";
import { ndjsonResponse } from "@/lib/http/ndjson-response";
import { checkContentType } from "@/lib/http/request-guard";
import { formatBytes } from "@/lib/text/byte-size";

export const dynamic = "force-dynamic";

/** Progress is sent at most this often, or after this many more entries. */
const PROGRESS_MS = 250;
const PROGRESS_ENTRIES = 5000;

const paramsSchema = z.object({
  fileName: z
    .string({ error: "fileName is required" })
    .trim()
    .min(1, "fileName is required")
    .max(255, "fileName is too long (255 characters at most)")
    .refine((name) => !/[\u0000-\u001f]/.test(name), "fileName must not contain control characters"),
  asCopy: z.enum(["0", "1"], { message: "asCopy must be 0 or 1" }).default("0"),
  title: z.string().max(1000, "title is too long").optional(),
});

/** The raw file's types; a form upload (multipart framing) or text would not be the file as it is. */
const IMPORT_CONTENT_TYPES = ["application/octet-stream", "application/x-ndjson", "application/jsonl"] as const;

function errorEvent(error: unknown, fileName: string): ImportErrorEvent {
  if (error instanceof ImportError) {
    return {
      type: "error",
      code: error.code,
      message: error.message,
      ...(error.existingSessionId ? { existingSessionId: error.existingSessionId } : {}),
    };
  }
  console.error(`import of ${fileName} failed`, error);
  return { type: "error", code: "failed", message: `${fileName}: the import failed on the server; nothing was saved. Try again.` };
}

/**
 * The request body as the import's byte source, except that an import that stops early (an
 * error after the first lines: "exists", a bad header) does not cancel the body. Browsers only
 * read the response once the whole request is sent, so an unread rest would stall the upload
 * until the connection is dropped and the browser would see a network error instead of the
 * message. `drain` reads and discards the rest (bounded), after which the response can end.
 */
function drainableSource(body: ReadableStream<Uint8Array>) {
  const reader = body.getReader();
  const source: AsyncIterable<Uint8Array> = {
    [Symbol.asyncIterator]: () => ({
      next: async () => {
        const r = await reader.read();
        return r.done ? { done: true, value: undefined } : { done: false, value: r.value };
      },
      return: async () => ({ done: true, value: undefined }),
    }),
  };
  const drain = async (limit: number) => {
    let bytes = 0;
    try {
      for (let r = await reader.read(); !r.done; r = await reader.read()) {
        bytes += r.value.byteLength;
        if (bytes > limit) break;
      }
    } catch {
      // The client went away: nothing left to read.
    }
    await reader.cancel().catch(() => undefined);
  };
  return { source, drain, cancel: () => reader.cancel().catch(() => undefined) };
}

function doneEvent(r: ImportResult): ImportEvent {
  const { sessionId, title, entryCount, skipped, skippedCount, truncated, truncatedCount, migrated, format, records, kept, sidechains, repairs, repairCount } = r;
  return {
    type: "done",
    sessionId,
    title,
    entryCount,
    skipped,
    skippedCount,
    truncated,
    truncatedCount,
    migrated,
    format,
    formatLabel: FORMAT_LABELS[format],
    records,
    kept,
    sidechains,
    repairs,
    repairCount,
  };
}

export async function POST(request: Request) {
  const foreign = refuseForeign(request);
  if (foreign) return foreign;
  const refused = await refuseAnonymous(request);
  if (refused) return refused;
  const parsed = paramsSchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) return jsonError(400, parsed.error.issues[0]?.message ?? "Bad parameters", "invalid_input");
  const { fileName, title } = parsed.data;
  const length = Number(request.headers.get("content-length") ?? Number.NaN);
  if (length > DEFAULT_MAX_IMPORT_BYTES) {
    return jsonError(413, `${fileName}: file is larger than the ${formatBytes(DEFAULT_MAX_IMPORT_BYTES)} import limit`, "too_large");
  }
  if (!request.body) return jsonError(400, `${fileName}: the request has no file in its body`, "invalid_input");
  const wrongType = checkContentType(request.headers.get("content-type"), IMPORT_CONTENT_TYPES, `${fileName}: the session file`);
  if (wrongType) {
    await request.body.cancel().catch(() => undefined);
    return jsonError(415, wrongType.error, wrongType.code);
  }
  const body = drainableSource(request.body);

  // Aborted when the browser goes away (request.signal) or stops reading the response.
  return ndjsonResponse<ImportEvent>(
    request,
    async (send, signal) => {
      let lastAt = 0;
      let lastEntries = 0;
      try {
        const result = await importSession({
          source: body.source,
          fileName,
          ...(title ? { title } : {}),
          asCopy: parsed.data.asCopy === "1",
          maxBytes: DEFAULT_MAX_IMPORT_BYTES,
          ...(length > 0 ? { totalBytes: length } : {}),
          signal,
          onProgress: ({ bytes, entries }) => {
            const now = Date.now();
            if (now - lastAt < PROGRESS_MS && entries - lastEntries < PROGRESS_ENTRIES) return;
            lastAt = now;
            lastEntries = entries;
            send({ type: "progress", bytes, entries });
          },
        });
        send(doneEvent(result));
      } catch (error) {
        if (!signal.aborted) {
          send(errorEvent(error, fileName));
          await body.drain(DEFAULT_MAX_IMPORT_BYTES);
        }
      } finally {
        void body.cancel();
      }
    },
    { onCancel: () => void body.cancel() },
  );
}
