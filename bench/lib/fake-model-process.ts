/**
 * The bench's model server in a process of its own (bench/chat.ts): test/fake-llm-server.ts with
 * its echo answers, started with `fork` so a real model server's separation holds — its reading
 * and JSON.parse of a 4.6 MB body do not block Arbor's event loop, as they would in-process.
 *
 * Protocol over the IPC channel: the child sends `{ url }` once listening, then for every chat
 * request `{ receivedAt, parsedAt }`: epoch ms (performance.timeOrigin + performance.now(),
 * comparable across processes) when the whole body had arrived and when it was parsed. It
 * keeps no request (the parent has the body it sent). A disconnected parent ends it.
 */
import { echoResponder, startFakeLlmServer } from "@/test/fake-llm-server";

export interface FakeModelTiming {
  receivedAt: number;
  parsedAt: number;
}

const now = () => performance.timeOrigin + performance.now();

const server = await startFakeLlmServer({ models: (process.env.FAKE_MODELS ?? "fake-model").split(",") });
server.setDefault((req) => {
  const timing: FakeModelTiming = { receivedAt: req.receivedAt ?? Number.NaN, parsedAt: now() };
  server.requests.length = 0;
  process.send?.(timing);
  return echoResponder(req);
});
process.send?.({ url: server.url });
process.on("disconnect", () => {
  void server.close().then(() => process.exit(0));
});
