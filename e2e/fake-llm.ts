/**
 * Scripting the e2e fake model server over its HTTP control routes (test/fake-llm-server.ts):
 * queue steps, set the default answer, read what the app sent, reset between tests.
 */
import type { FakeStep } from "@/test/fake-llm-steps";
import { E2E_PORTS } from "./ports";

const base = `http://127.0.0.1:${E2E_PORTS.fakeLlm}/_fake`;

async function post(path: string, body?: unknown): Promise<void> {
  const res = await fetch(`${base}/${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
  if (!res.ok) throw new Error(`fake LLM ${path}: ${res.status} ${await res.text()}`);
}

export const fakeLlm = {
  /** Steps answered in order by the next chat-completion requests. */
  script: (...steps: FakeStep[]) => post("script", steps),
  /** The answer used when no scripted step is left. */
  setDefault: (step: FakeStep) => post("default", step),
  reset: () => post("reset"),
  requests: async (): Promise<{ messages: { role: string; content?: unknown }[]; model?: string; system?: string; lastUserText?: string; maxTokens?: number; clientClosed?: boolean }[]> =>
    (await fetch(`${base}/requests`)).json(),
};
