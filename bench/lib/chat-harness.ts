/**
 * The chat bench's harness (bench/chat.ts): the chat runtime pointed at the fake model server
 * in a child process (bench/lib/fake-model-process.ts), one timed turn through Arbor
 * (`arborTurn`) and the same request body sent to the model server directly (`directTurn`).
 * Times that cross the processes are epoch ms (performance.timeOrigin + performance.now()).
 */
import { uploadFetch } from "@/lib/llm/upload-fetch";
import { type ChildProcess, fork } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chatBodySchema } from "@/app/api/chat/schema";
import { setProjectHooksFile } from "@/lib/chat/hooks-loader";
import { parseJsonBody } from "@/lib/http/route-helpers";
import { readUIStream } from "@/lib/chat-protocol/read-ui-stream";
import { configureChatRuntime, resetChatRuntime } from "@/lib/chat/runtime-config";
import { startChatTurn, userContentOf } from "@/lib/chat/turn";
import { appendEntries, createSession } from "@/lib/db";
import { createProviderRegistry } from "@/lib/llm/providers";
import { assistantMsg, userMsg } from "@/test/session-factories";
import type { FakeModelTiming } from "./fake-model-process";

const MODEL_ID = "fake-model";

export interface Harness {
  /** The model server's base URL (a child process: bench/lib/fake-model-process.ts). */
  url: string;
  /** Epoch ms (performance.timeOrigin + performance.now()) when the provider handed the last body to fetch. */
  sentAt: number;
  /** This process's CPU time (user + system, ms) from `cpuFrom` until the body went to fetch. */
  cpuAtSend: number;
  cpuFrom: NodeJS.CpuUsage;
  /** The last request body, as the provider sent it. */
  lastBody: Uint8Array<ArrayBuffer>;
  /** The model server's timing of the next chat request (epoch ms, comparable with `sentAt`). */
  nextTiming(): Promise<FakeModelTiming>;
  close(): Promise<void>;
}

/** Epoch ms with sub-ms resolution, comparable across processes. */
export const epochNow = () => performance.timeOrigin + performance.now();

/** Forks the model server process and resolves once it listens. */
function forkModelServer(): Promise<{ child: ChildProcess; url: string }> {
  const child = fork(fileURLToPath(new URL("./fake-model-process.ts", import.meta.url)), [], {
    execArgv: ["--import", "tsx"],
    env: { ...process.env, FAKE_MODELS: MODEL_ID },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`the model server process exited (${code})`)));
    child.once("message", (m) => resolve({ child, url: (m as { url: string }).url }));
  });
}

export async function startHarness(dir: string): Promise<Harness> {
  const { child, url } = await forkModelServer();
  const timings: FakeModelTiming[] = [];
  const waiting: ((t: FakeModelTiming) => void)[] = [];
  child.on("message", (m) => {
    const timing = m as FakeModelTiming;
    const next = waiting.shift();
    if (next) next(timing);
    else timings.push(timing);
  });
  const workspaces = await mkdtemp(path.join(dir, "workspaces-"));
  // providers.ts hands the body over as bytes (bytesBodyFetch) before this fetch sees it; it then
  // goes on as the app's own does (uploadFetch: block bodies through node:http).
  const appFetch = uploadFetch();
  const timedFetch: typeof fetch = (input, init) => {
    harness.sentAt = epochNow();
    const cpu = process.cpuUsage(harness.cpuFrom);
    harness.cpuAtSend = (cpu.user + cpu.system) / 1000;
    const body = init?.body as unknown;
    if (body instanceof Uint8Array) harness.lastBody = body as Uint8Array<ArrayBuffer>;
    else if (body && typeof body === "object" && Symbol.asyncIterator in body) {
      // A large body streamed in blocks (lib/llm/spliced-prompt.ts): kept as it passes, for the direct baseline.
      return appFetch(input, { ...init, body: tapped(body as AsyncIterable<Uint8Array>) as unknown as BodyInit });
    }
    return appFetch(input, init);
  };
  async function* tapped(blocks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
    const seen: Uint8Array[] = [];
    for await (const block of blocks) {
      seen.push(block);
      yield block;
    }
    harness.lastBody = Buffer.concat(seen) as Uint8Array<ArrayBuffer>;
  }
  // A huge window: no automatic compaction between the measured turns.
  const registry = createProviderRegistry({
    compatible: { baseURL: url, models: [{ id: MODEL_ID, contextWindow: 50_000_000 }], fetch: timedFetch },
  });
  configureChatRuntime({ registry, workspacesDir: workspaces });
  setProjectHooksFile(null);
  const harness: Harness = {
    url,
    sentAt: 0,
    cpuAtSend: 0,
    cpuFrom: process.cpuUsage(),
    lastBody: new Uint8Array(new ArrayBuffer(0)),
    nextTiming: () => {
      const ready = timings.shift();
      return ready ? Promise.resolve(ready) : new Promise((resolve) => waiting.push(resolve));
    },
    async close() {
      resetChatRuntime();
      setProjectHooksFile(undefined);
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.disconnect();
      await exited;
      await rm(workspaces, { recursive: true, force: true });
    },
  };
  return harness;
}

/** A new session with `pairs` user / assistant exchanges. */
export async function smallSession(pairs: number): Promise<string> {
  const meta = await createSession({ cwd: "/work" });
  const entries = [];
  for (let i = 0; i < pairs; i++) {
    entries.push({ type: "message" as const, message: userMsg(`question ${i}: ${"lorem ipsum ".repeat(30)}`) });
    const usage = { input: 100, output: 100 };
    const answer = assistantMsg(`answer ${i}: ${"dolor sit amet ".repeat(25)}`, { provider: "openai-compatible", model: MODEL_ID, api: "openai-completions", usage });
    entries.push({ type: "message" as const, message: answer });
  }
  await appendEntries({ sessionId: meta.id, expectedLeafId: null, entries });
  return meta.id;
}

/** POST /api/chat minus its sign-in check (see the header). */
async function postChat(sessionId: string, text: string): Promise<Response> {
  const message = { id: `m-${crypto.randomUUID()}`, role: "user", parts: [{ type: "text", text }] };
  const request = new Request("http://arbor.bench/api/chat", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ id: sessionId, message }),
  });
  const body = await parseJsonBody(request, chatBodySchema);
  if (!body.ok) return body.response;
  const content = userContentOf(body.value.message.parts);
  if (content === undefined) throw new Error("chat: no text");
  return startChatTurn({ sessionId: body.value.id, content });
}

/**
 * Ms from the POST until the first text delta, until the provider handed the body to fetch,
 * until the whole body had reached the model server and until that server had parsed it.
 */
export async function arborTurn(
  h: Harness,
  sessionId: string,
  text: string,
): Promise<{ first: number; request: number; sent: number; parsed: number; cpu: number }> {
  const timing = h.nextTiming();
  h.cpuFrom = process.cpuUsage();
  const start = epochNow();
  const res = await postChat(sessionId, text);
  if (res.status !== 200) throw new Error(`chat: ${res.status} ${await res.text()}`);
  let first: number | undefined;
  for await (const chunk of readUIStream(res)) {
    if (first === undefined && chunk.type === "text-delta") first = epochNow() - start;
    if (chunk.type === "data-error") throw new Error(`chat: ${JSON.stringify(chunk.data)}`);
  }
  if (first === undefined) throw new Error("chat: no text-delta in the stream");
  const { receivedAt, parsedAt } = await timing;
  return { first, request: receivedAt - start, sent: h.sentAt - start, parsed: parsedAt - start, cpu: h.cpuAtSend };
}

/** Ms until the first SSE chunk with content, posting `body` to the fake server directly. */
export async function directTurn(h: Harness, body: Uint8Array<ArrayBuffer>): Promise<number> {
  const timing = h.nextTiming();
  const start = performance.now();
  const res = await fetch(`${h.url}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer bench" },
    body,
  });
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  let first: number | undefined;
  for (;;) {
    const { value, done } = await reader.read();
    if (value) buffer += value;
    let cut = buffer.indexOf("\n\n");
    while (first === undefined && cut >= 0) {
      const payload = buffer.slice(0, cut).replace(/^data: /, "");
      buffer = buffer.slice(cut + 2);
      if (payload !== "[DONE]") {
        const chunk = JSON.parse(payload) as { choices?: { delta?: { content?: string } }[] };
        if (chunk.choices?.[0]?.delta?.content) first = performance.now() - start;
      }
      cut = buffer.indexOf("\n\n");
    }
    if (done) break;
  }
  if (first === undefined) throw new Error("direct: no content chunk");
  await timing;
  return first;
}
