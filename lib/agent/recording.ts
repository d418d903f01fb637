/**
 * Model-call recording (the ModelCallRecorder port) and the summarizer wrapper the agent hands
 * to compaction and branch summarization.
 *
 * Contract: every chat step and every summarization call is recorded once, after it finishes,
 * including failures (a thrown summarizer error is recorded as stopReason "error" and then
 * rethrown unchanged, so the §13.3 retry logic still sees it). A recorder that throws or
 * rejects is logged and ignored: observing must never break a turn.
 *
 * Secrets: a summary prompt (compaction, branch summary; model or remote endpoint) is sent with
 * every secret the scanner finds in it masked (lib/secrets, docs/secrets.md), unless the
 * session's settings allow sending them (`secrets.sendToSummaries`). The record holds what was
 * sent.
 */
import { errorText } from "@/lib/text/error-text";
import type {
  AgentLogger,
  AgentModel,
  ModelCallRecord,
  ModelCallRecorder,
  SummaryTextListener,
} from "@/lib/agent/ports";
import type { Summarize, SummarizeRequest, SummarizeResponse } from "@/lib/compaction/summarize-types";
import { maskSecretsInText } from "@/lib/secrets";

export function safeRecord(recorder: ModelCallRecorder | undefined, call: ModelCallRecord, log: AgentLogger): void {
  if (!recorder) return;
  try {
    const pending = recorder.record(call);
    if (pending && typeof pending.then === "function") {
      pending.then(undefined, (err: unknown) => log.warn("Model call recorder failed", { error: errorText(err) }));
    }
  } catch (err) {
    log.warn("Model call recorder failed", { error: errorText(err) });
  }
}

function responseOf(res: SummarizeResponse): ModelCallRecord["response"] {
  if (res.stopReason === "error") {
    return res.errorMessage === undefined ? { stopReason: "error" } : { stopReason: "error", errorMessage: res.errorMessage };
  }
  if (res.stopReason === "aborted") return { stopReason: "aborted" };
  return { stopReason: res.stopReason, text: res.text };
}

export interface SummarizerDeps {
  recorder?: ModelCallRecorder;
  log: AgentLogger;
  now: () => number;
  onText?: SummaryTextListener;
  remoteEndpoint?: string;
  /** `secrets.sendToSummaries`: send found secrets as they are (default: masked). */
  sendSecrets?: boolean;
}

/** The request with its prompt and system prompt masked (lib/secrets). */
async function masked(req: SummarizeRequest): Promise<SummarizeRequest> {
  const [prompt, systemPrompt] = await Promise.all([maskSecretsInText(req.prompt), maskSecretsInText(req.systemPrompt)]);
  return prompt === req.prompt && systemPrompt === req.systemPrompt ? req : { ...req, prompt, systemPrompt };
}

/** `model.summarizer()` with recording around each call. */
export function recordingSummarizer(model: AgentModel, deps: SummarizerDeps): Summarize {
  const inner = model.summarizer({
    ...(deps.onText ? { onText: deps.onText } : {}),
    ...(deps.remoteEndpoint ? { remoteEndpoint: deps.remoteEndpoint } : {}),
  });
  return async (asked) => {
    const req = deps.sendSecrets ? asked : await masked(asked);
    const startedAt = deps.now();
    const request: ModelCallRecord["request"] = {
      system: req.systemPrompt,
      messages: [{ role: "user", content: [{ type: "text", text: req.prompt }], timestamp: startedAt }],
      maxOutputTokens: req.maxTokens,
      ...(req.reasoning ? { reasoning: req.reasoning } : {}),
    };
    const finish = (response: ModelCallRecord["response"]) =>
      safeRecord(
        deps.recorder,
        { kind: req.kind, model: model.info, request, response, startedAt, durationMs: deps.now() - startedAt },
        deps.log,
      );
    let res: SummarizeResponse;
    try {
      res = await inner(req);
    } catch (err) {
      finish({ stopReason: "error", errorMessage: errorText(err) });
      throw err;
    }
    finish(responseOf(res));
    // Which model answered: the compaction entry records it with the call's usage (docs/usage.md).
    return "text" in res ? { ...res, model: { provider: model.info.provider, id: model.info.id } } : res;
  };
}
