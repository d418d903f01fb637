/**
 * A real HTTP server (node:http, 127.0.0.1, free port) in the test's own process, for tests
 * that must show one request does not stall another: `POST /route` streams the request body
 * into a route handler (Fetch `Request` → `Response`, the response streamed back as it is
 * produced), and `GET /ping` answers "pong" at once. A blocked event loop delays `/ping`, so its
 * latency measures how much the handler's work starves everything else in the process.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";

export type FetchHandler = (request: Request) => Promise<Response>;

export interface RouteServer {
  url: string;
  /** Milliseconds a `GET /ping` round trip takes. */
  ping(): Promise<number>;
  close(): Promise<void>;
}

async function serve(handler: FetchHandler, req: IncomingMessage, res: ServerResponse, base: string): Promise<void> {
  const controller = new AbortController();
  res.on("close", () => controller.abort());
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
  const request = new Request(new URL(req.url ?? "/", base).toString(), {
    method: req.method ?? "GET",
    headers,
    signal: controller.signal,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: "half" } : {}),
  } as RequestInit);
  const response = await handler(request);
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (!response.body) return void res.end();
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) res.write(chunk);
  res.end();
}

/** `host` is the listening address (default 127.0.0.1; "::" takes IPv4 and IPv6 clients alike). */
export async function startRouteServer(handler: FetchHandler, { host = "127.0.0.1" }: { host?: string } = {}): Promise<RouteServer> {
  let base = "";
  const server = createServer((req, res) => {
    if (req.url === "/ping") return void res.end("pong");
    serve(handler, req, res, base).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    async ping() {
      const started = performance.now();
      await (await fetch(`${base}/ping`)).text();
      return performance.now() - started;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
