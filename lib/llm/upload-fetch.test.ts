/**
 * uploadFetch (lib/llm/upload-fetch.ts) against a real HTTP server: a block body arrives byte for
 * byte with the headers fetch would have sent, the response streams as it comes (SSE), compressed
 * responses are decoded, an abort ends the upload or the response with an AbortError, a refused
 * connection fails as fetch fails, and every other body goes through the fallback unchanged.
 */
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { uploadFetch } from "@/lib/llm/upload-fetch";

interface Seen {
  headers: IncomingMessage["headers"];
  body: Buffer;
  closedEarly: boolean;
}

let server: Server;
let base = "";
let seen: Seen[] = [];
/** How the current test's server answers, once it has the whole body. */
let answer: (res: ServerResponse) => void = (res) => res.end("ok");

beforeAll(async () => {
  server = createServer((req, res) => {
    const parts: Buffer[] = [];
    const entry: Seen = { headers: req.headers, body: Buffer.alloc(0), closedEarly: false };
    seen.push(entry);
    req.on("data", (p: Buffer) => parts.push(p));
    req.on("close", () => {
      if (!req.complete) entry.closedEarly = true;
    });
    req.on("end", () => {
      entry.body = Buffer.concat(parts);
      answer(res);
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});
beforeEach(() => {
  seen = [];
  answer = (res) => res.end("ok");
});

/** A body of `blocks` blocks of 256 KB, each a different byte pattern. */
function blockBody(blocks: number): { chunks: Buffer[]; whole: Buffer } {
  const chunks = Array.from({ length: blocks }, (_, i) => Buffer.alloc(256 * 1024, `block ${i} é;`));
  return { chunks, whole: Buffer.concat(chunks) };
}

async function* yieldAll(chunks: Buffer[]): AsyncGenerator<Buffer> {
  for (const c of chunks) yield c;
}

function post(chunks: Buffer[], init: RequestInit = {}): Promise<Response> {
  const length = chunks.reduce((n, c) => n + c.length, 0);
  const headers = { "content-type": "application/json", "content-length": String(length), authorization: "Bearer k" };
  return uploadFetch()(`${base}/v1/chat/completions`, { method: "POST", headers, body: yieldAll(chunks) as unknown as BodyInit, ...init });
}

describe("uploadFetch", () => {
  it("sends a block body byte for byte, with the headers fetch sends for the same bytes", async () => {
    const { chunks, whole } = blockBody(18);
    const res = await post(chunks);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("ok");
    await fetch(`${base}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", "content-length": String(whole.length), authorization: "Bearer k" },
      body: new Uint8Array(whole),
    }).then((r) => r.text());
    const [ours, theirs] = seen as [Seen, Seen];
    expect(ours.body.equals(whole)).toBe(true);
    expect(ours.headers).toEqual(theirs.headers);
    expect(ours.headers["transfer-encoding"]).toBeUndefined();
  });

  it("streams the response as it arrives (a server-sent event before the server has ended)", async () => {
    let finish: () => void = () => undefined;
    const finished = new Promise<void>((resolve) => {
      finish = resolve;
    });
    answer = (res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write('data: {"n":1}\n\n');
      void finished.then(() => res.end("data: [DONE]\n\n"));
    };
    const res = await post(blockBody(2).chunks);
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('data: {"n":1}\n\n');
    finish();
    let rest = "";
    for (let r = await reader.read(); !r.done; r = await reader.read()) rest += new TextDecoder().decode(r.value);
    expect(rest).toBe("data: [DONE]\n\n");
    expect(res.headers.get("content-type")).toBe("text/event-stream");
  });

  it("decodes a gzip-compressed response, as fetch does", async () => {
    answer = (res) => {
      res.writeHead(400, { "content-type": "application/json", "content-encoding": "gzip" });
      res.end(gzipSync(JSON.stringify({ error: { message: "context too long" } })));
    };
    const res = await post(blockBody(1).chunks);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: { message: "context too long" } });
  });

  it("an abort during the upload rejects with an AbortError and ends the request", async () => {
    const controller = new AbortController();
    async function* slow(): AsyncGenerator<Buffer> {
      yield Buffer.alloc(1024, "a");
      // Aborted once the server has the request's start, before the body is complete.
      await expect.poll(() => seen.length).toBe(1);
      controller.abort();
      yield Buffer.alloc(1024, "b");
    }
    const sent = uploadFetch()(`${base}/x`, {
      method: "POST",
      headers: { "content-length": "4096" },
      body: slow() as unknown as BodyInit,
      signal: controller.signal,
    });
    await expect(sent).rejects.toMatchObject({ name: "AbortError" });
    await expect.poll(() => seen[0]?.closedEarly).toBe(true);
  });

  it("an abort while the response streams errors its body with an AbortError", async () => {
    answer = (res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write("data: 1\n\n");
    };
    const controller = new AbortController();
    const res = await post(blockBody(1).chunks, { signal: controller.signal });
    const reader = res.body!.getReader();
    await reader.read();
    controller.abort();
    await expect(reader.read()).rejects.toMatchObject({ name: "AbortError" });
  });

  it("a refused connection fails as fetch fails (TypeError with the cause)", async () => {
    const closed = createServer();
    closed.listen(0, "127.0.0.1");
    await once(closed, "listening");
    const port = (closed.address() as AddressInfo).port;
    closed.close();
    const sent = uploadFetch()(`http://127.0.0.1:${port}/x`, { method: "POST", body: yieldAll([Buffer.from("{}")]) as unknown as BodyInit });
    await expect(sent).rejects.toMatchObject({ name: "TypeError", message: "fetch failed", cause: { code: "ECONNREFUSED" } });
  });

  it("hands any other body to the fallback unchanged", async () => {
    const through: (BodyInit | null | undefined)[] = [];
    const fallback: typeof fetch = (input, init) => {
      through.push(init?.body);
      return fetch(input, init);
    };
    const res = await uploadFetch(fallback)(`${base}/y`, { method: "POST", body: "plain" });
    expect(await res.text()).toBe("ok");
    expect(through).toEqual(["plain"]);
    expect(seen[0]?.body.toString()).toBe("plain");
  });
});
