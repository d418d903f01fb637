/**
 * The `Summarize` adapter the engine's compact() and generateBranchSummary() call (session-engine.md §6, §6.3, §7).
 * Server-side.
 *
 * Model path (every kind without a remote endpoint; turnPrefix and branch always):
 * - system = req.systemPrompt, one user message with req.prompt, maxOutputTokens = req.maxTokens;
 * - `reasoning: "high"` is applied only if the model supports reasoning (lib/llm/reasoning.ts:
 *   Anthropic thinking budget 16384 on top of maxTokens, capped; OpenAI/compatible reasoningEffort);
 * - no SDK retries; abort → `{ stopReason: "aborted" }`; provider failure → `{ stopReason: "error",
 *   errorMessage }` with the status text (lib/llm/model-error.ts); never throws;
 * - text = the text blocks joined with "\n"; `onText(kind, delta)` streams it as it arrives;
 * - the offline model learns the request kind from `providerOptions.offline.kind`.
 *
 * Remote path (history and short, when `remoteEndpoint` is set, session-engine.md §7):
 * POST `{ systemPrompt, prompt }` as JSON with no auth, not tied to the abort signal (checked after
 * it returns). Non-2xx → console.warn with endpoint/status/statusText/body, then throw
 * `Remote compaction failed (${status} ${statusText})`; a body that is not an object or has no
 * string `summary` → throw `Remote compaction response missing summary`. A history response's
 * non-empty `shortSummary` is passed on. These throws are the only ones (session-engine.md §6).
 */
import type { Summarize, SummarizeRequest, SummarizeResponse } from "@/lib/compaction/summarize-types";
import { OFFLINE_PROVIDER } from "@/lib/llm/models";
import type { ResolvedModel } from "@/lib/llm/providers";
import { streamAssistant } from "@/lib/llm/stream-assistant";

export interface SummarizerOptions {
  model: ResolvedModel;
  /** `compaction.remoteEndpoint` (session-engine.md §15). */
  remoteEndpoint?: string;
  fetchImpl?: typeof fetch;
  /** Live summary text, per request kind. */
  onText?: (kind: SummarizeRequest["kind"], delta: string) => void;
  /** streamAssistant's idle timeout for the model path (default there: 120 s). */
  idleTimeoutMs?: number;
}

interface RemoteSummary {
  summary: string;
  shortSummary?: string;
}

async function postRemote(endpoint: string, req: SummarizeRequest, fetchImpl: typeof fetch): Promise<RemoteSummary> {
  // Deliberately no `signal`: as in oh-my-pi the request runs to completion (session-engine.md §7).
  const res = await fetchImpl(endpoint, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ systemPrompt: req.systemPrompt, prompt: req.prompt }),
  });
  if (!res.ok) {
    let body = "";
    try {
      body = await res.text();
    } catch {
      // The status is what matters; an unreadable body is not a second error.
    }
    console.warn("Remote compaction endpoint failed", { endpoint, status: res.status, statusText: res.statusText, body });
    throw new Error(`Remote compaction failed (${res.status} ${res.statusText})`);
  }
  let data: unknown;
  try {
    data = await res.json();
  } catch {
    data = undefined;
  }
  if (!data || typeof data !== "object" || Array.isArray(data) || typeof (data as RemoteSummary).summary !== "string") {
    throw new Error("Remote compaction response missing summary");
  }
  const { summary, shortSummary } = data as RemoteSummary;
  return { summary, shortSummary: typeof shortSummary === "string" && shortSummary.trim() ? shortSummary : undefined };
}

async function summarizeWithModel(opts: SummarizerOptions, req: SummarizeRequest): Promise<SummarizeResponse> {
  if (req.signal?.aborted) return { stopReason: "aborted" };
  const message = await streamAssistant({
    model: opts.model,
    system: req.systemPrompt,
    messages: [{ role: "user", content: [{ type: "text", text: req.prompt }], timestamp: Date.now() }],
    maxOutputTokens: req.maxTokens,
    reasoning: req.reasoning,
    providerOptions: opts.model.info.provider === OFFLINE_PROVIDER ? { offline: { kind: req.kind } } : undefined,
    signal: req.signal,
    ...(opts.idleTimeoutMs !== undefined ? { idleTimeoutMs: opts.idleTimeoutMs } : {}),
    onDelta: (event) => {
      if (event.type === "text-delta") opts.onText?.(req.kind, event.delta);
    },
  });
  if (message.stopReason === "aborted" || req.signal?.aborted) return { stopReason: "aborted" };
  if (message.stopReason === "error") return { stopReason: "error", errorMessage: message.errorMessage };
  const text = message.content
    .filter((b) => b.type === "text")
    .map((b) => b.text)
    .join("\n");
  // The call's usage goes on the compaction or branch summary entry, so the ledger counts it
  // (docs/usage.md); a provider that reported none gives zeros, which would count a free call.
  const u = message.usage;
  const reported = u.input + u.output + u.cacheRead + u.cacheWrite > 0;
  return { stopReason: message.stopReason, text, ...(reported ? { usage: u } : {}) };
}

export function createSummarizer(opts: SummarizerOptions): Summarize {
  const fetchImpl = opts.fetchImpl ?? fetch;
  return async (req) => {
    const remote = opts.remoteEndpoint && (req.kind === "history" || req.kind === "short");
    if (!remote || !opts.remoteEndpoint) return summarizeWithModel(opts, req);
    const result = await postRemote(opts.remoteEndpoint, req, fetchImpl);
    if (req.signal?.aborted) return { stopReason: "aborted" };
    opts.onText?.(req.kind, result.summary);
    if (req.kind === "history" && result.shortSummary) {
      return { stopReason: "stop", text: result.summary, shortSummary: result.shortSummary };
    }
    return { stopReason: "stop", text: result.summary };
  };
}
