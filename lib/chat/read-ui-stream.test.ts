import { describe, expect, it } from "vitest";
import { readUIStream } from "./read-ui-stream";

function sse(chunks: string[]): Response {
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      const enc = new TextEncoder();
      for (const ch of chunks) c.enqueue(enc.encode(ch));
      c.close();
    },
  });
  return new Response(body);
}

describe("readUIStream", () => {
  it("yields each data chunk across arbitrary network splits and stops at [DONE]", async () => {
    const res = sse(['data: {"type":"start"}\n\nda', 'ta: {"type":"data-compaction","data":{"phase":"delta","delta":"Hé"}}\n', '\ndata: [DONE]\n\ndata: {"type":"late"}\n\n']);
    const out = [];
    for await (const c of readUIStream(res)) out.push(c);
    expect(out).toEqual([{ type: "start" }, { type: "data-compaction", data: { phase: "delta", delta: "Hé" } }]);
  });
  it("skips malformed chunks", async () => {
    const out = [];
    for await (const c of readUIStream(sse(["data: {oops\n\n", 'data: {"type":"ok"}\n\n']))) out.push(c);
    expect(out).toEqual([{ type: "ok" }]);
  });
});
