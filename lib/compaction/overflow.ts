/**
 * Context-overflow and retryable-error detection, and retry-after parsing (session-engine.md §14).
 * Pure (no node imports) although it lives in lib/llm: the agent loop and the summarizer
 * adapter both call it, and it only inspects strings and usage numbers.
 */
import type { AssistantMessage, Usage } from "@/lib/session/types";

/** Provider overflow messages (session-engine.md §14 case 1); the list is the contract, in spec order. */
export const OVERFLOW_PATTERNS: readonly RegExp[] = [
  /prompt is too long/i,
  /input is too long for requested model/i,
  /exceeds the context window/i,
  /input token count.*exceeds the maximum/i,
  /maximum prompt length is \d+/i,
  /reduce the length of the messages/i,
  /maximum context length is \d+ tokens/i,
  /exceeds the limit of \d+/i,
  /exceeds the available context size/i,
  /requested tokens?.*exceed.*context (window|length|size)/i,
  /context (window|length|size).*(exceeded|overflow|too small)/i,
  /(prompt|input).*(too long|too large).*(context|n_ctx)/i,
  /requested tokens?.*(exceeds?|greater than).*(n_ctx|context)/i,
  /greater than the context length/i,
  /context window exceeds limit/i,
  /exceeded model token limit/i,
  /context[_ ]length[_ ]exceeded/i,
  /too many tokens/i,
  /token limit exceeded/i,
  /request_too_large/i,
];

/** Cerebras and Mistral report an overflow as a bare 400/413 with no body (session-engine.md §14). */
export const NO_BODY_OVERFLOW_PATTERN = /^4(00|13)\s*(status code)?\s*\(no body\)/i;

/**
 * "A 429 is never an overflow" (session-engine.md §14). Rate-limit messages such as
 * "429 Too many tokens per minute" would otherwise hit the generic `too many tokens` pattern.
 */
const RATE_LIMIT_PATTERN = /\b429\b|too many requests|rate[ _-]?limit/i;

export const RETRYABLE_ERROR_PATTERN =
  /overloaded|rate.?limit|usage.?limit|too many requests|429|500|502|503|504|service.?unavailable|server error|internal error|connection.?error|fetch failed|retry delay/i;

/** The fields the checks read; a full AssistantMessage satisfies it. */
export interface OverflowCandidate {
  stopReason: AssistantMessage["stopReason"];
  errorMessage?: string;
  usage?: Partial<Pick<Usage, "input" | "cacheRead">>;
}

/** True when an error message text reports a context overflow (session-engine.md §14 case 1). */
export function isOverflowErrorMessage(message: string): boolean {
  if (RATE_LIMIT_PATTERN.test(message)) return false;
  if (NO_BODY_OVERFLOW_PATTERN.test(message)) return true;
  return OVERFLOW_PATTERNS.some((p) => p.test(message));
}

/**
 * Case 1: an error whose message matches a known overflow pattern.
 * Case 2 (silent overflow): the prompt used more tokens than the window, for ANY stopReason,
 * because some providers accept an over-long prompt without complaint.
 */
export function isContextOverflow(msg: OverflowCandidate, contextWindow?: number): boolean {
  if (msg.stopReason === "error" && msg.errorMessage && isOverflowErrorMessage(msg.errorMessage)) return true;
  if (contextWindow) {
    const used = (msg.usage?.input ?? 0) + (msg.usage?.cacheRead ?? 0);
    if (used > contextWindow) return true;
  }
  return false;
}

/** Transient provider failures worth retrying (session-engine.md §14). */
export function isRetryableErrorMessage(message: string): boolean {
  return RETRYABLE_ERROR_PATTERN.test(message);
}

/**
 * A turn error worth retrying (session-engine.md §13.5): an assistant error whose message is not an overflow
 * (compaction handles those) and matches the retryable pattern.
 */
export function isRetryableError(msg: OverflowCandidate, contextWindow?: number): boolean {
  if (msg.stopReason !== "error" || !msg.errorMessage) return false;
  if (isContextOverflow(msg, contextWindow)) return false;
  return isRetryableErrorMessage(msg.errorMessage);
}

const NUMERIC = /^\d+(\.\d+)?$/;
/** An RFC 9110 IMF-fixdate, e.g. "Wed, 21 Oct 2015 07:28:00 GMT" (contains spaces and a comma). */
const RETRY_AFTER_HTTP_DATE = /retry-after\s*[:=]\s*([A-Za-z]{3},\s*\d{1,2}\s+[A-Za-z]{3}\s+\d{4}\s+\d{2}:\d{2}:\d{2}\s+GMT)/i;

function clamp(ms: number): number {
  return Math.max(0, Math.ceil(ms));
}

/** Rule 2: `retry-after` is either delay-seconds or an HTTP date. */
function retryAfterValue(message: string, now: number): number | undefined {
  const match = /retry-after\s*[:=]\s*([^\s,;]+)/i.exec(message);
  if (!match?.[1]) return undefined;
  const value = match[1];
  if (NUMERIC.test(value)) return Number(value) * 1000;
  // The spec's token stops at whitespace and commas, which cuts an IMF-fixdate short, so a
  // full HTTP date is matched separately; an ISO timestamp parses from the token itself.
  const full = RETRY_AFTER_HTTP_DATE.exec(message)?.[1];
  const at = Date.parse(full ?? value);
  return Number.isNaN(at) ? undefined : at - now;
}

/**
 * The retry delay an error message asks for, in ms, or undefined (session-engine.md §14). The first rule
 * that yields a value wins; a rule whose value cannot be read falls through to the next one.
 * Results are clamped to at least 0.
 */
export function parseRetryAfter(message: string, now: number = Date.now()): number | undefined {
  const ms = /retry-after-ms\s*[:=]\s*(\d+)/i.exec(message)?.[1];
  if (ms !== undefined) return clamp(Number(ms));

  const retryAfter = retryAfterValue(message, now);
  if (retryAfter !== undefined) return clamp(retryAfter);

  const resetMs = /x-ratelimit-reset-ms\s*[:=]\s*(\d+)/i.exec(message)?.[1];
  if (resetMs !== undefined) {
    const v = Number(resetMs);
    // Above 1e12 it can only be an epoch in ms (year 2001+); below, a duration.
    return clamp(v > 1e12 ? v - now : v);
  }

  const reset = /x-ratelimit-reset\s*[:=]\s*(\d+)/i.exec(message)?.[1];
  if (reset !== undefined) {
    const v = Number(reset);
    // Above 1e9 it is an epoch in seconds; below, a duration in seconds.
    return clamp(v > 1e9 ? v * 1000 - now : v * 1000);
  }
  return undefined;
}
