/**
 * Test harness of the chat integration tests (not used by production code): the REAL fake
 * OpenAI-compatible server (test/fake-llm-server.ts) reached through the REAL provider
 * registry (`createProviderRegistry({ compatible })`), a real database (the test file calls
 * `useTestDatabase()`), and the route handlers called with `new Request(...)`.
 * A test file calls `const h = useHarness(...)` once at its top: the harness is started before
 * the file's tests, its fake server reset before each test and closed after them.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach } from "vitest";
import { POST as chatPost } from "@/app/api/chat/route";
import { POST as stopPost } from "@/app/api/chat/stop/route";
import { GET as compactGet, POST as compactPost } from "@/app/api/sessions/[id]/compact/route";
import { POST as navigatePost } from "@/app/api/sessions/[id]/navigate/route";
import { writeSessionSettings } from "@/lib/db/store/agent-store";
import { appendEntries, createSession, loadEntries, loadPath, type SessionMeta } from "@/lib/db";
import { createProviderRegistry } from "@/lib/llm/providers";
import { assistantMsg, userMsg } from "@/test/session-factories";
import type { SessionEntry } from "@/lib/session/types";
import { type FakeLlmServer, startFakeLlmServer } from "@/test/fake-llm-server";
import { setProjectHooksFile } from "@/lib/chat/hooks-loader";
import { type UIStreamChunk, readUIStream } from "@/lib/chat-protocol/read-ui-stream";
import { type ChatRuntimeConfig, configureChatRuntime, resetChatRuntime } from "@/lib/chat/runtime-config";

export const MODEL_ID = "fake-model";
export const MODEL_REF = `openai-compatible/${MODEL_ID}`;

export interface Harness {
  fake: FakeLlmServer;
  workspaces: string;
  close(): Promise<void>;
}

export async function startHarness(opts: { contextWindow?: number } = {}): Promise<Harness> {
  const fake = await startFakeLlmServer({ models: [MODEL_ID] });
  const workspaces = await mkdtemp(path.join(tmpdir(), "arbor-chat-"));
  const registry = createProviderRegistry({
    compatible: {
      baseURL: fake.url,
      models: [opts.contextWindow ? { id: MODEL_ID, contextWindow: opts.contextWindow } : MODEL_ID],
    },
  });
  configureChatRuntime({ registry, workspacesDir: workspaces });
  setProjectHooksFile(null);
  return {
    fake,
    workspaces,
    async close() {
      resetChatRuntime();
      setProjectHooksFile(undefined);
      await fake.close();
      await rm(workspaces, { recursive: true, force: true });
    },
  };
}

/**
 * Registers the file-level hooks around `startHarness(opts)`: start before all tests (then apply
 * `runtime` on top of the harness's own runtime config), reset the fake server's script before
 * each test, close after all. The returned handle reads the started harness, so use it inside
 * tests and hooks only, not at module load.
 */
export function useHarness(opts: { contextWindow?: number; runtime?: ChatRuntimeConfig } = {}): Harness {
  let started: Harness | undefined;
  const current = (): Harness => {
    if (!started) throw new Error("useHarness: the harness is not started (used outside a test?)");
    return started;
  };
  beforeAll(async () => {
    started = await startHarness({ contextWindow: opts.contextWindow });
    if (opts.runtime) configureChatRuntime(opts.runtime);
  });
  afterAll(() => current().close());
  beforeEach(() => current().fake.reset());
  return {
    get fake() {
      return current().fake;
    },
    get workspaces() {
      return current().workspaces;
    },
    close: () => current().close(),
  };
}

/** A new session with an optional settings document (the `settings` column). */
export async function newSession(settings?: unknown): Promise<SessionMeta> {
  const meta = await createSession({ cwd: "/work" });
  if (settings !== undefined) await writeSessionSettings({ sessionId: meta.id, settings });
  return meta;
}

/** `pairs` user/assistant exchanges of about `chars` characters each, from the fake model. */
export async function seedHistory(sessionId: string, pairs: number, chars = 400): Promise<SessionEntry[]> {
  const entries = [];
  for (let i = 0; i < pairs; i++) {
    const filler = `${"lorem ipsum ".repeat(Math.ceil(chars / 12))}`.slice(0, chars);
    entries.push({ type: "message" as const, message: userMsg(`question ${i}: ${filler}`) });
    entries.push({
      type: "message" as const,
      message: assistantMsg(`answer ${i}: ${filler}`, {
        provider: "openai-compatible",
        model: MODEL_ID,
        api: "openai-completions",
        usage: { input: 100, output: 100 },
      }),
    });
  }
  const result = await appendEntries({ sessionId, expectedLeafId: null, entries });
  return result.entries;
}

export function uiMessage(text: string) {
  return { id: `m-${Math.random().toString(36).slice(2)}`, role: "user", parts: [{ type: "text", text }] };
}

function jsonRequest(url: string, body: unknown, init: RequestInit = {}): Request {
  return new Request(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
    ...init,
  });
}

const params = (id: string) => ({ params: Promise.resolve({ id }) });

export function postChat(sessionId: string, text: string, extra: Record<string, unknown> = {}): Promise<Response> {
  return chatPost(jsonRequest("http://arbor.test/api/chat", { id: sessionId, message: uiMessage(text), ...extra }));
}

export function postRaw(body: unknown, init: RequestInit = {}): Promise<Response> {
  return chatPost(jsonRequest("http://arbor.test/api/chat", body, init));
}

export async function stop(sessionId: string): Promise<{ ok: boolean; stopped: boolean }> {
  const res = await stopPost(jsonRequest("http://arbor.test/api/chat/stop", { id: sessionId }));
  return (await res.json()) as { ok: boolean; stopped: boolean };
}

export function compactPreview(sessionId: string, focus?: string): Promise<Response> {
  const q = focus ? `?focus=${encodeURIComponent(focus)}` : "";
  return compactGet(new Request(`http://arbor.test/api/sessions/${sessionId}/compact${q}`), params(sessionId));
}

export function compactRun(sessionId: string, body: unknown = {}, signal?: AbortSignal): Promise<Response> {
  const init = signal ? { signal } : {};
  return compactPost(jsonRequest(`http://arbor.test/api/sessions/${sessionId}/compact`, body, init), params(sessionId));
}

export function navigate(sessionId: string, body: unknown, signal?: AbortSignal): Promise<Response> {
  const init = signal ? { signal } : {};
  return navigatePost(jsonRequest(`http://arbor.test/api/sessions/${sessionId}/navigate`, body, init), params(sessionId));
}

/** Every chunk of a UI message stream response, in order. */
export async function readAll(res: Response): Promise<UIStreamChunk[]> {
  const chunks: UIStreamChunk[] = [];
  for await (const chunk of readUIStream(res)) chunks.push(chunk);
  return chunks;
}

/** The `data` of every `data-<name>` chunk. */
export function dataOf<T = Record<string, unknown>>(chunks: UIStreamChunk[], name: string): T[] {
  return chunks.filter((c) => c.type === `data-${name}`).map((c) => c.data as T);
}

export function textOf(chunks: UIStreamChunk[]): string {
  return chunks
    .filter((c) => c.type === "text-delta")
    .map((c) => c.delta as string)
    .join("");
}

export const storedPath = (sessionId: string) => loadPath({ sessionId });
export const storedEntries = (sessionId: string) => loadEntries({ sessionId });

/** The messages on the stored path, as `role: text` lines (easy to assert on). */
export async function transcript(sessionId: string): Promise<string[]> {
  return (await storedPath(sessionId)).map((e) => {
    if (e.type !== "message") return `[${e.type}]`;
    const m = e.message as { role: string; content?: unknown };
    const content = m.content;
    const t =
      typeof content === "string"
        ? content
        : Array.isArray(content)
          ? content.map((b: { type: string; text?: string }) => (b.type === "text" ? b.text : `[${b.type}]`)).join("")
          : "";
    return `${m.role}: ${t}`;
  });
}
