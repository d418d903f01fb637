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

async function collect(res: Response) {
  const out = [];
  for await (const c of readUIStream(res)) out.push(c);
  return out;
}

describe("readUIStream", () => {
  it("yields each chunk across arbitrary network splits, data parts included; [DONE] carries none", async () => {
    const res = sse([
      'data: {"type":"start"}\n\nda',
      'ta: {"type":"data-compaction","data":{"phase":"delta","delta":"Hé"}}\n',
      '\ndata: {"type":"text-delta","id":"t1","delta":"x"}\n\ndata: [DONE]\n\n',
    ]);
    expect(await collect(res)).toEqual([
      { type: "start" },
      { type: "data-compaction", data: { phase: "delta", delta: "Hé" } },
      { type: "text-delta", id: "t1", delta: "x" },
    ]);
  });
  it("skips malformed JSON and chunks that are not UI message chunks", async () => {
    const res = sse(["data: {oops\n\n", 'data: {"type":"no-such-chunk"}\n\n', 'data: {"type":"finish"}\n\n']);
    expect(await collect(res)).toEqual([{ type: "finish" }]);
  });
  it("ends at once on a response without a body", async () => {
    expect(await collect(new Response(null))).toEqual([]);
  });
});
