/**
 * The providers' fetch for a request body that comes as blocks (a spliced context of a megabyte
 * or more, lib/llm/spliced-prompt.ts): sent with node:http(s) instead of undici's fetch.
 *
 * Why: undici pulls a streamed body one block per event-loop turn and copies each block into its
 * own write, so a 4.6 MB context took 28–38 ms to reach the model server while the turn's other
 * work held the loop (23 ms for the same bytes from the same process when idle, ~7 ms between two
 * small processes). Here every block is queued on the socket at once; libuv writes the queue as
 * the socket takes it, with no JavaScript between the writes.
 *
 * Contract: for any other body (string, bytes, none) or a `Request` input, the fallback fetch is
 * used unchanged. For a block body it behaves as fetch does for the providers:
 * - the same request: method, the caller's headers, and the headers undici adds when the caller
 *   did not set them (FETCH_DEFAULTS), so the model server sees the same request either way;
 * - the response streams as it arrives (SSE), gzip / deflate / br bodies decoded as fetch does;
 * - `signal` aborts the upload or the response body, rejecting with the signal's reason (an
 *   AbortError, which the AI SDK treats as a cancelled call);
 * - a failed connection rejects with `TypeError("fetch failed")` and the cause, as undici does
 *   (the AI SDK turns that into a retryable "cannot connect" error);
 * - redirects are not followed (a block body cannot be sent twice; undici does not follow them
 *   for a streamed body either).
 */
import http from "node:http";
import https from "node:https";
import { Readable } from "node:stream";
import zlib from "node:zlib";

/** What undici's fetch adds to a request when the caller did not set the header (Node 20). */
const FETCH_DEFAULTS: readonly [string, string][] = [
  ["accept", "*/*"],
  ["accept-language", "*"],
  ["sec-fetch-mode", "cors"],
  ["user-agent", "node"],
  ["accept-encoding", "gzip, deflate"],
];

/** Kept-alive connections, as undici keeps them, per protocol. */
const agents = { "http:": new http.Agent({ keepAlive: true }), "https:": new https.Agent({ keepAlive: true }) };

/** Statuses whose response has no body, whatever the server sends. */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

function isBlockBody(body: unknown): body is AsyncIterable<Uint8Array> {
  return typeof body === "object" && body !== null && Symbol.asyncIterator in body && !(body instanceof ReadableStream);
}

/** A fetch that sends block bodies itself (see the header) and everything else through `fallback`. */
export function uploadFetch(fallback: typeof fetch = fetch): typeof fetch {
  return (input, init) => {
    if (!isBlockBody(init?.body) || input instanceof Request) return fallback(input, init);
    return send(new URL(String(input)), init as RequestInit, init?.body as AsyncIterable<Uint8Array>);
  };
}

function fetchFailed(cause: unknown): TypeError {
  return Object.assign(new TypeError("fetch failed"), { cause });
}

function send(url: URL, init: RequestInit, blocks: AsyncIterable<Uint8Array>): Promise<Response> {
  const signal = init.signal ?? undefined;
  if (signal?.aborted) return Promise.reject(signal.reason);
  const transport = url.protocol === "https:" ? https : url.protocol === "http:" ? http : undefined;
  if (!transport) return Promise.reject(fetchFailed(new Error(`unsupported protocol ${url.protocol}`)));
  const headers = new Headers(init.headers);
  for (const [name, value] of FETCH_DEFAULTS) if (!headers.has(name)) headers.set(name, value);

  return new Promise<Response>((resolve, reject) => {
    let response: http.IncomingMessage | undefined;
    const onAbort = () => {
      const reason = signal?.reason;
      if (response) response.destroy(reason);
      req.destroy(reason);
      reject(reason);
    };
    const req = transport.request(
      url,
      { method: init.method ?? "GET", headers: Object.fromEntries(headers), agent: agents[url.protocol as "http:" | "https:"] },
      (res) => {
        response = res;
        res.once("close", () => signal?.removeEventListener("abort", onAbort));
        resolve(toResponse(res, init.method));
      },
    );
    signal?.addEventListener("abort", onAbort, { once: true });
    req.once("error", (error) => {
      signal?.removeEventListener("abort", onAbort);
      reject(signal?.aborted ? signal.reason : fetchFailed(error));
    });
    queueBlocks(blocks, req).catch((error: unknown) => req.destroy(error instanceof Error ? error : new Error(String(error))));
  });
}

/**
 * Every block goes onto the socket's queue as soon as it is made (the body is in memory already;
 * waiting for 'drain' would cost one event-loop turn per block), then the request ends.
 */
async function queueBlocks(blocks: AsyncIterable<Uint8Array>, req: http.ClientRequest): Promise<void> {
  for await (const block of blocks) {
    if (req.destroyed) return;
    req.write(block);
  }
  req.end();
}

/** The node response as a fetch Response: same status and headers, the body decoded and streamed. */
function toResponse(res: http.IncomingMessage, method: string | undefined): Response {
  const headers = new Headers();
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) headers.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
  const status = res.statusCode ?? 502;
  if (NULL_BODY.has(status) || method === "HEAD") {
    res.resume();
    return new Response(null, { status, statusText: res.statusMessage, headers });
  }
  const encoding = (res.headers["content-encoding"] ?? "").trim().toLowerCase();
  const decoder =
    encoding === "gzip" || encoding === "x-gzip"
      ? zlib.createGunzip({ flush: zlib.constants.Z_SYNC_FLUSH })
      : encoding === "deflate"
        ? zlib.createInflate({ flush: zlib.constants.Z_SYNC_FLUSH })
        : encoding === "br"
          ? zlib.createBrotliDecompress({ flush: zlib.constants.BROTLI_OPERATION_FLUSH })
          : undefined;
  let body: Readable = res;
  if (decoder) {
    // A failure on either side ends the other; the decoder's error reaches the reader.
    res.once("error", (error) => decoder.destroy(error));
    decoder.once("close", () => res.destroy());
    body = res.pipe(decoder);
  }
  return new Response(Readable.toWeb(body) as ReadableStream<Uint8Array>, { status, statusText: res.statusMessage, headers });
}
