/**
 * Small pieces of lib/llm/stream-assistant.ts: the idle timer, and the mapping of the provider
 * interface's usage, finish reasons and tool-call input to the engine's types (session-engine.md §1.5).
 * Pure but for timers.
 */
import type { LanguageModelV3FinishReason, LanguageModelV3Usage } from "@ai-sdk/provider";
import type { StopReason, Usage } from "@/lib/session/types";

/** How long a model call may go without any data before it is ended (stream-assistant.ts). */
export const DEFAULT_IDLE_TIMEOUT_MS = 120_000;

/** "The model stopped responding (no data for 120 s)". */
export function idleTimeoutMessage(ms: number): string {
  const seconds = Math.round(ms / 100) / 10;
  return `The model stopped responding (no data for ${seconds} s)`;
}

/** Aborts `controller` once `ms` pass without a `touch()`; `ms <= 0` never fires. */
export function idleTimer(ms: number, controller: AbortController) {
  let fired = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const touch = () => {
    if (ms <= 0 || fired) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      fired = true;
      controller.abort(new DOMException(idleTimeoutMessage(ms), "TimeoutError"));
    }, ms);
    // A timer left behind by a call that failed early must not keep a CLI process alive.
    timer.unref?.();
  };
  touch();
  return { touch, fired: () => fired, clear: () => clearTimeout(timer) };
}

/**
 * Provider usage → Usage: input = prompt tokens not read from or written to the cache,
 * cacheRead / cacheWrite as reported, totalTokens = the sum of the four.
 */
export function mapUsage(usage: LanguageModelV3Usage | undefined): Usage {
  const tokens = usage?.inputTokens;
  const cacheRead = tokens?.cacheRead ?? 0;
  const cacheWrite = tokens?.cacheWrite ?? 0;
  const input = tokens?.noCache ?? Math.max(0, (tokens?.total ?? 0) - cacheRead - cacheWrite);
  const output = usage?.outputTokens?.total ?? 0;
  return { input, output, cacheRead, cacheWrite, totalTokens: input + output + cacheRead + cacheWrite };
}

export function mapFinishReason(reason: LanguageModelV3FinishReason["unified"] | undefined): StopReason | undefined {
  switch (reason) {
    case "stop":
    case "other":
      return "stop";
    case "length":
      return "length";
    case "tool-calls":
      return "toolUse";
    case "error":
    case "content-filter":
      return "error";
    default:
      return undefined;
  }
}

/** A tool call's JSON input text → its arguments object ({} when empty, not JSON or no object). */
export function toArguments(input: unknown): Record<string, unknown> {
  let value = input;
  if (typeof value === "string") {
    if (value.trim() === "") return {};
    try {
      value = JSON.parse(value);
    } catch {
      return {};
    }
  }
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

export function anthropicSignature(meta: unknown): string | undefined {
  const sig = (meta as { anthropic?: { signature?: unknown } } | undefined)?.anthropic?.signature;
  return typeof sig === "string" && sig ? sig : undefined;
}
