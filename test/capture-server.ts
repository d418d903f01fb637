/**
 * An HTTP server that records every request (url, headers, body text) and answers each with a
 * 400 JSON error in both the OpenAI and the Anthropic shape ("captured"), so a model call made
 * through a real provider ends at once with that error. For tests of what a provider sends
 * (lib/llm/provider-request.test.ts, spliced-prompt.test.ts). Registers its own vitest hooks:
 * started before the file's tests, closed after them, `captured` emptied before each test.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach } from "vitest";

export interface Captured {
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface CaptureServer {
  /** Base URL ending in `/v1` (set once the server listens). */
  base: string;
  /** The requests of the current test, in arrival order. */
  captured: Captured[];
}

export function useCaptureServer(): CaptureServer {
  const state: CaptureServer = { base: "", captured: [] };
  let server: Server;
  beforeAll(async () => {
    server = createServer((req, res) => {
      const parts: Buffer[] = [];
      req.on("data", (p: Buffer) => parts.push(p));
      req.on("end", () => {
        state.captured.push({ url: req.url ?? "", headers: req.headers, body: Buffer.concat(parts).toString("utf8") });
        res.writeHead(400, { "content-type": "application/json" });
        res.end(JSON.stringify({ type: "error", error: { message: "captured", type: "invalid_request_error" } }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
    state.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    state.captured = [];
  });
  return state;
}
