/**
 * The Summarize adapter (session-engine.md §6, §6.3, §7): the model path against the fake OpenAI-compatible
 * server through the real provider, and the remote-endpoint path against a second local server.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { SummarizeRequest } from "@/lib/compaction/summarize-types";
import { isRetryableErrorMessage } from "@/lib/compaction/overflow";
import { createProviderRegistry, type ProviderRegistry } from "@/lib/llm/providers";
import { createSummarizer } from "@/lib/llm/summarizer";
import { type FakeLlmServer, startFakeLlmServer } from "@/test/fake-llm-server";

let llm: FakeLlmServer;
let registry: ProviderRegistry;

beforeAll(async () => {
  llm = await startFakeLlmServer();
  registry = createProviderRegistry({
    compatible: { baseURL: llm.url, models: [{ id: "fake-reasoner", reasoning: true }, "fake-plain"] },
  });
});
beforeEach(() => llm.reset());
afterAll(() => llm.close());

const req = (partial: Partial<SummarizeRequest> = {}): SummarizeRequest => ({
  kind: "history",
  systemPrompt: "SYSTEM: summarize only",
  prompt: "<conversation>\n[User]: hi\n</conversation>\n\nSummarize it.",
  maxTokens: 13107,
  reasoning: "high",
  ...partial,
});

describe("summarizer: model path (session-engine.md §6.2, §6.3)", () => {
  it("sends the system prompt, the prompt as one user message, max_tokens and reasoning_effort", async () => {
    llm.script({ text: "## Goal\nSay hi", chunkSize: 4, usage: { promptTokens: 1200, completionTokens: 30, cachedTokens: 200 } });
    const live: string[] = [];
    const summarize = createSummarizer({ model: registry.resolveModel("openai-compatible/fake-reasoner"), onText: (kind, d) => live.push(`${kind}:${d}`) });
    const res = await summarize(req());
    // The call's usage as the provider reported it (the ledger prices it: docs/usage.md).
    expect(res).toEqual({ stopReason: "stop", text: "## Goal\nSay hi", usage: { input: 1000, output: 30, cacheRead: 200, cacheWrite: 0, totalTokens: 1230 } });
    const [sent] = llm.requests;
    expect(sent?.messages.map((m) => m.role)).toEqual(["system", "user"]);
    expect(sent).toMatchObject({ system: "SYSTEM: summarize only", lastUserText: req().prompt, maxTokens: 13107, reasoningEffort: "high" });
    expect(live.join("").replaceAll("history:", "")).toBe("## Goal\nSay hi");
    expect(live.length).toBeGreaterThan(1);
  });

  it("drops reasoning for a model without reasoning support, and when none is asked", async () => {
    llm.script({ text: "a" }, { text: "b" });
    await createSummarizer({ model: registry.resolveModel("openai-compatible/fake-plain") })(req());
    await createSummarizer({ model: registry.resolveModel("openai-compatible/fake-reasoner") })(req({ kind: "branch", reasoning: undefined, maxTokens: 2048 }));
    expect(llm.requests.map((r) => r.reasoningEffort)).toEqual([undefined, undefined]);
    expect(llm.requests[1]?.maxTokens).toBe(2048);
  });

  it("maps length, provider errors (with status text) and aborts", async () => {
    const summarize = createSummarizer({ model: registry.resolveModel("openai-compatible/fake-plain") });
    llm.script({ text: "partial", finishReason: "length", usage: false });
    expect(await summarize(req())).toEqual({ stopReason: "length", text: "partial" });

    llm.script({ kind: "error", status: 503, message: "The server is overloaded" });
    const failed = await summarize(req());
    expect(failed.stopReason).toBe("error");
    const message = failed.stopReason === "error" ? (failed.errorMessage ?? "") : "";
    expect(message).toMatch(/^503 Service Unavailable: The server is overloaded/);
    expect(isRetryableErrorMessage(message)).toBe(true);

    llm.script({ text: "x".repeat(200), chunkSize: 5, delayMs: 20 });
    const controller = new AbortController();
    const abortOnText = createSummarizer({ model: registry.resolveModel("openai-compatible/fake-plain"), onText: () => controller.abort() });
    expect(await abortOnText(req({ signal: controller.signal }))).toEqual({ stopReason: "aborted" });

    const already = new AbortController();
    already.abort();
    expect(await summarize(req({ signal: already.signal }))).toEqual({ stopReason: "aborted" });
  });
});

// ── Remote endpoint (session-engine.md §7) ──────────────────────────────────────────────

interface RemoteCall {
  headers: IncomingMessage["headers"];
  body: unknown;
}
let remote: Server;
let remoteUrl: string;
let remoteCalls: RemoteCall[];
let remoteAnswer: { status: number; statusText?: string; body: string };

beforeAll(async () => {
  remote = createServer(async (r, res) => {
    const chunks: Buffer[] = [];
    for await (const c of r) chunks.push(c as Buffer);
    remoteCalls.push({ headers: r.headers, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) });
    res.statusCode = remoteAnswer.status;
    if (remoteAnswer.statusText) res.statusMessage = remoteAnswer.statusText;
    res.setHeader("content-type", "application/json");
    res.end(remoteAnswer.body);
  });
  await new Promise<void>((resolve) => remote.listen(0, "127.0.0.1", () => resolve()));
  remoteUrl = `http://127.0.0.1:${(remote.address() as AddressInfo).port}/compact`;
});
beforeEach(() => {
  remoteCalls = [];
  remoteAnswer = { status: 200, body: JSON.stringify({ summary: "REMOTE SUMMARY" }) };
});
afterEach(() => vi.restoreAllMocks());
afterAll(() => new Promise<void>((resolve) => remote.close(() => resolve())));

describe("summarizer: remote endpoint (session-engine.md §7)", () => {
  const summarizer = () => createSummarizer({ model: registry.resolveModel("openai-compatible/fake-plain"), remoteEndpoint: remoteUrl });

  it("POSTs { systemPrompt, prompt } as JSON with no auth and returns the summary", async () => {
    const res = await summarizer()(req());
    expect(res).toEqual({ stopReason: "stop", text: "REMOTE SUMMARY" });
    expect(remoteCalls).toHaveLength(1);
    expect(remoteCalls[0]?.body).toEqual({ systemPrompt: req().systemPrompt, prompt: req().prompt });
    expect(remoteCalls[0]?.headers["content-type"]).toBe("application/json");
    expect(remoteCalls[0]?.headers.authorization).toBeUndefined();
    expect(llm.requests).toHaveLength(0);
  });

  it("passes a non-empty shortSummary on for history, and ignores an empty one", async () => {
    remoteAnswer.body = JSON.stringify({ summary: "LONG", shortSummary: "SHORT" });
    expect(await summarizer()(req())).toEqual({ stopReason: "stop", text: "LONG", shortSummary: "SHORT" });
    remoteAnswer.body = JSON.stringify({ summary: "LONG", shortSummary: "  " });
    expect(await summarizer()(req())).toEqual({ stopReason: "stop", text: "LONG" });
  });

  it("sends the short request too; its summary becomes the short summary text", async () => {
    remoteAnswer.body = JSON.stringify({ summary: "I changed things." });
    expect(await summarizer()(req({ kind: "short", maxTokens: 512 }))).toEqual({ stopReason: "stop", text: "I changed things." });
    expect(remoteCalls).toHaveLength(1);
  });

  it("sends turnPrefix and branch requests to the model, never to the endpoint", async () => {
    llm.script({ text: "prefix", usage: false }, { text: "branch", usage: false });
    const s = summarizer();
    expect(await s(req({ kind: "turnPrefix" }))).toEqual({ stopReason: "stop", text: "prefix" });
    expect(await s(req({ kind: "branch" }))).toEqual({ stopReason: "stop", text: "branch" });
    expect(remoteCalls).toHaveLength(0);
    expect(llm.requests).toHaveLength(2);
  });

  it("a non-2xx answer warns with endpoint/status/body and throws", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    remoteAnswer = { status: 503, statusText: "Service Unavailable", body: "try later" };
    await expect(summarizer()(req())).rejects.toThrow("Remote compaction failed (503 Service Unavailable)");
    expect(warn).toHaveBeenCalledTimes(1);
    expect(JSON.stringify(warn.mock.calls[0])).toContain(remoteUrl);
    expect(warn.mock.calls[0]?.[1]).toMatchObject({ endpoint: remoteUrl, status: 503, statusText: "Service Unavailable", body: "try later" });
  });

  it("throws when the body has no string summary or is not an object", async () => {
    for (const body of [JSON.stringify({ text: "x" }), JSON.stringify({ summary: 3 }), JSON.stringify("just a string"), "[]", "not json"]) {
      remoteAnswer.body = body;
      await expect(summarizer()(req())).rejects.toThrow("Remote compaction response missing summary");
    }
  });

  it("is not tied to the abort signal: the request completes, then aborted is reported", async () => {
    const controller = new AbortController();
    controller.abort();
    expect(await summarizer()(req({ signal: controller.signal }))).toEqual({ stopReason: "aborted" });
    expect(remoteCalls).toHaveLength(1);
  });
});
