/** Server-Sent Events read from a route's response in the tests, one event at a time. */

/** Reads SSE events from a response body as they come. */
export function eventReader(res: Response) {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  return async function next(ms = 30_000): Promise<{ event: string; data: unknown }> {
    const deadline = Date.now() + ms;
    for (;;) {
      const end = buffer.indexOf("\n\n");
      if (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event) return { event, data: data === undefined ? null : JSON.parse(data) };
        continue;
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new Error("no event in time");
      const r = await Promise.race([reader.read(), new Promise<never>((_, reject) => setTimeout(() => reject(new Error("no event in time")), left))]);
      if (r.done) throw new Error("the stream ended");
      buffer += r.value;
    }
  };
}

