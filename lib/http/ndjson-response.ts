/**
 * A streamed NDJSON response (one JSON event a line) for long operations — import, folder sync —
 * whose work stops when the browser goes away (the request's signal) or stops reading (the stream
 * is cancelled): both abort the signal `run` gets. The stream closes once `run` settles; `run`
 * reports its own failures as events. `onCancel` runs when the reader cancels (e.g. to release
 * the request body).
 */
const NDJSON_HEADERS = {
  "content-type": "application/x-ndjson; charset=utf-8",
  // no-transform: keeps compression from holding events back until the end.
  "cache-control": "no-store, no-transform",
  "x-content-type-options": "nosniff",
};

export function ndjsonResponse<E>(
  request: Request,
  run: (send: (event: E) => void, signal: AbortSignal) => Promise<void>,
  opts: { onCancel?: () => void } = {},
): Response {
  const abort = new AbortController();
  const onAbort = () => abort.abort(request.signal.reason);
  if (request.signal.aborted) onAbort();
  else request.signal.addEventListener("abort", onAbort, { once: true });

  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (event: E) => {
        if (abort.signal.aborted) return;
        try {
          controller.enqueue(encoder.encode(`${JSON.stringify(event)}\n`));
        } catch {
          // The response was cancelled meanwhile.
        }
      };
      void run(send, abort.signal)
        .catch((error: unknown) => console.error("arbor: a streamed operation failed outside its own error handling:", error))
        .finally(() => {
          request.signal.removeEventListener("abort", onAbort);
          try {
            controller.close();
          } catch {
            // Already cancelled.
          }
        });
    },
    cancel(reason) {
      abort.abort(reason);
      opts.onCancel?.();
    },
  });
  return new Response(stream, { headers: NDJSON_HEADERS });
}
