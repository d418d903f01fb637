/**
 * A Server-Sent Events response for a watch: `ready` once `subscribe` is listening, then what it
 * sends (`event(name, data)`), a comment line every HEARTBEAT_MS so proxies keep an idle stream
 * open, and `retry: 2000` for the browser's reconnect. Closing the request (or the stream) calls
 * the stop function `subscribe` returned. `subscribe` runs before the response exists, so its
 * failure (a lost database) is the route's to answer.
 */
const HEARTBEAT_MS = 15_000;

export type SseSend = (event: string, data: unknown) => void;

function sse(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** Subscribes; returns the stream, or what `subscribe` answered instead (a Response: e.g. 404 after it stopped). */
export async function sseResponse(request: Request, subscribe: (send: SseSend) => Promise<(() => void) | Response>): Promise<Response> {
  const encoder = new TextEncoder();
  let write: (text: string) => void = () => undefined;
  const stop = await subscribe((event, data) => write(sse(event, data)));
  if (stop instanceof Response) return stop;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  const close = () => {
    stop();
    if (heartbeat) clearInterval(heartbeat);
    write = () => undefined;
  };
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      write = (text) => {
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          close();
        }
      };
      write(`retry: 2000\n${sse("ready", {})}`);
      heartbeat = setInterval(() => write(": heartbeat\n\n"), HEARTBEAT_MS);
      request.signal.addEventListener("abort", () => {
        close();
        try {
          controller.close();
        } catch {
          // already closed
        }
      });
    },
    cancel: close,
  });
  return new Response(body, {
    headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-store, no-transform", "x-accel-buffering": "no" },
  });
}
