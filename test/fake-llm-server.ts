/**
 * A scriptable fake OpenAI-compatible model server for tests and e2e runs (node:http, 127.0.0.1).
 *
 * Contract:
 * - `POST /v1/chat/completions` answers from the script queue (first in, first out); when the
 *   queue is empty the default step answers (`echoResponder` unless `setDefault` changed it).
 *   `stream: true` gets OpenAI-style SSE chunks (`data: {...}\n\n`, then `data: [DONE]`), with a
 *   final usage chunk when `stream_options.include_usage` is set; `stream: false` gets one JSON body.
 * - `GET /v1/models` lists `options.models`.
 * - `/_fake/*` control routes let a separate process (e2e) be scripted over HTTP:
 *   `POST /_fake/script` (JSON step or array), `POST /_fake/default`, `GET /_fake/requests`,
 *   `POST /_fake/reset`. Only JSON steps travel that way; responder functions are in-process only.
 * - Every chat request is recorded (parsed body plus conveniences) in `requests`, in arrival order.
 *
 * No imports outside node builtins and ./fake-llm-steps, so the CLI can run it standalone.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  buildCompletion,
  buildStreamChunks,
  echoResponder,
  type FakeErrorStep,
  type FakeRequest,
  type FakeStep,
  type ScriptItem,
  toFakeRequest,
} from "./fake-llm-steps";

export type { FakeErrorStep, FakeReplyStep, FakeRequest, FakeStep, ScriptItem } from "./fake-llm-steps";
export { echoResponder, looksLikeSummarization } from "./fake-llm-steps";

export interface FakeLlmServerOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  /** Ids served by `GET /v1/models`. */
  models?: string[];
}

export interface FakeLlmServer {
  /** Base URL ending in `/v1`, for `createOpenAICompatible({ baseURL })`. */
  url: string;
  port: number;
  /** Queue steps (or responders) for the next requests, in order. */
  script(...steps: (ScriptItem | ScriptItem[])[]): void;
  /** The step used when the queue is empty. */
  setDefault(step: ScriptItem): void;
  /** Recorded chat requests, oldest first. */
  requests: FakeRequest[];
  /** Steps still queued. */
  pending(): number;
  /** Clears the queue and the recorded requests and restores the echo default. */
  reset(): void;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The request body, and when its last byte had arrived (epoch ms, before it is decoded). */
async function readBodyTimed(req: IncomingMessage): Promise<{ text: string; endedAt: number }> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  const endedAt = performance.timeOrigin + performance.now();
  return { text: Buffer.concat(parts).toString("utf8"), endedAt };
}

async function readBody(req: IncomingMessage): Promise<string> {
  return (await readBodyTimed(req)).text;
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

function sendError(res: ServerResponse, step: FakeErrorStep): void {
  const headers = { ...(step.headers ?? {}) };
  if (step.body === "") {
    res.writeHead(step.status, headers);
    res.end();
    return;
  }
  if (typeof step.body === "string") {
    res.writeHead(step.status, { "content-type": "text/plain", ...headers });
    res.end(step.body);
    return;
  }
  const body = step.body ?? {
    error: { message: step.message ?? `Fake error ${step.status}`, type: step.errorType ?? "fake_error", code: step.code ?? null },
  };
  sendJson(res, step.status, body, headers);
}

/** Writes the step's answer; stops quietly once the client has gone away. */
async function answer(req: IncomingMessage, res: ServerResponse, parsed: FakeRequest, step: FakeStep): Promise<void> {
  let gone = false;
  res.on("close", () => {
    gone = true;
    if (!res.writableFinished) parsed.clientClosed = true;
  });
  if (step.kind !== "error" && step.kind !== "reset" && step.initialDelayMs) await sleep(step.initialDelayMs);
  if (gone) return;

  switch (step.kind) {
    case "hang":
      // Never answer: the client must abort, or close() destroys the socket.
      return;
    case "reset":
      req.socket.destroy();
      return;
    case "error":
      if (step.delayMs) await sleep(step.delayMs);
      if (!gone) sendError(res, step);
      return;
    case "garbage":
      if (parsed.stream) {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.end(`data: ${step.body ?? "this is not json"}\n\n`);
      } else {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(step.body ?? "<html>this is not json</html>");
      }
      return;
    default:
      break;
  }

  if (!parsed.stream) {
    sendJson(res, 200, buildCompletion(step, parsed), step.headers);
    return;
  }
  const chunks = buildStreamChunks(step, parsed);
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", ...(step.headers ?? {}) });
  res.flushHeaders();
  for (const [i, chunk] of chunks.entries()) {
    if (gone) return;
    if (step.failAfterChunks !== undefined && i >= step.failAfterChunks) {
      // Mid-stream failure: the connection drops without a clean end of the chunked body.
      req.socket.destroy();
      return;
    }
    if (step.hangAfterChunks !== undefined && i >= step.hangAfterChunks) return;
    res.write(`data: ${JSON.stringify(chunk)}\n\n`);
    if (step.delayMs) await sleep(step.delayMs);
  }
  if (gone) return;
  res.end("data: [DONE]\n\n");
}

export async function startFakeLlmServer(options: FakeLlmServerOptions = {}): Promise<FakeLlmServer> {
  const queue: ScriptItem[] = [];
  const requests: FakeRequest[] = [];
  let fallback: ScriptItem = echoResponder;
  const models = options.models ?? ["fake-model"];

  async function nextStep(request: FakeRequest): Promise<FakeStep> {
    const item = queue.shift() ?? fallback;
    return typeof item === "function" ? await item(request) : item;
  }

  async function control(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    if (path === "/_fake/requests") return sendJson(res, 200, requests);
    if (path === "/_fake/reset") {
      api.reset();
      return sendJson(res, 200, { ok: true });
    }
    const body = JSON.parse((await readBody(req)) || "null") as FakeStep | FakeStep[] | null;
    if (path === "/_fake/script" && body) api.script(body);
    else if (path === "/_fake/default" && body && !Array.isArray(body)) fallback = body;
    else return sendJson(res, 400, { error: { message: "bad control request" } });
    sendJson(res, 200, { ok: true, pending: queue.length });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    if (path.startsWith("/_fake/")) return control(req, res, path);
    if (req.method === "GET" && path === "/v1/models") {
      return sendJson(res, 200, {
        object: "list",
        data: models.map((id) => ({ id, object: "model", created: 0, owned_by: "fake" })),
      });
    }
    if (req.method !== "POST" || path !== "/v1/chat/completions") {
      return sendJson(res, 404, { error: { message: `No route ${req.method} ${path}`, type: "not_found" } });
    }
    const { text: raw, endedAt: receivedAt } = await readBodyTimed(req);
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      return sendJson(res, 400, { error: { message: "Request body is not JSON", type: "invalid_request_error" } });
    }
    const parsed = toFakeRequest(body, req.headers, requests.length);
    parsed.receivedAt = receivedAt;
    requests.push(parsed);
    // A client that gave up before we read its request takes no step, so a late arrival from an
    // aborted call cannot eat the step scripted for the next one.
    if (req.socket.destroyed || res.destroyed) {
      parsed.clientClosed = true;
      return;
    }
    await answer(req, res, parsed, await nextStep(parsed));
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: { message: `Fake server failure: ${String(err)}` } });
      else res.destroy();
    });
  });
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  const api: FakeLlmServer = {
    url: `http://${host}:${port}/v1`,
    port,
    requests,
    script(...steps) {
      for (const s of steps) queue.push(...(Array.isArray(s) ? s : [s]));
    },
    setDefault(step) {
      fallback = step;
    },
    pending: () => queue.length,
    reset() {
      queue.length = 0;
      requests.length = 0;
      fallback = echoResponder;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return api;
}
