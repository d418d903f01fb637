import { describe, expect, it } from "vitest";
import {
  isContextOverflow,
  isOverflowErrorMessage,
  isRetryableError,
  isRetryableErrorMessage,
  OVERFLOW_PATTERNS,
  parseRetryAfter,
} from "@/lib/compaction/overflow";

const error = (errorMessage: string, usage = { input: 0, cacheRead: 0 }) => ({
  stopReason: "error" as const,
  errorMessage,
  usage,
});

// One realistic provider message per pattern, in the spec's order (session-engine.md §14 case 1).
const SAMPLES: [number, string, string][] = [
  [0, "Anthropic", "prompt is too long: 213462 tokens > 200000 maximum"],
  [1, "Bedrock", "ValidationException: Input is too long for requested model."],
  [2, "OpenAI", "Your input exceeds the context window of this model. Please adjust your input and try again."],
  [3, "Gemini", "The input token count (1196265) exceeds the maximum number of tokens allowed (1048575)."],
  [4, "xAI", "This model's maximum prompt length is 131072 but the request contains 537812 tokens."],
  [5, "Groq", "Please reduce the length of the messages or completion."],
  [6, "OpenRouter", "This endpoint's maximum context length is 128000 tokens. However, you requested about 150000 tokens."],
  [7, "Copilot", "prompt token count of 140000 exceeds the limit of 128000"],
  [8, "llama.cpp", "the request exceeds the available context size, try increasing it"],
  [9, "vLLM", "Requested tokens (9000) exceed context window of 8192"],
  [10, "Ollama", "error: context length exceeded for model qwen3:8b"],
  [11, "LocalAI", "input is too large for the configured context (n_ctx)"],
  [12, "llama-server", "requested token count 40000 is greater than n_ctx 32768"],
  [13, "LM Studio", "The number of tokens to keep from the initial prompt is greater than the context length"],
  [14, "MiniMax", "invalid params, context window exceeds limit (2013)"],
  [15, "Kimi", "Your request exceeded model token limit: 262144"],
  [16, "OpenAI code", "Error code: 400 - {'error': {'code': 'context_length_exceeded'}}"],
  [17, "generic", "Too many tokens in the request"],
  [18, "generic", "Token limit exceeded for this model"],
  [19, "Anthropic 413", '413 {"type":"error","error":{"type":"request_too_large","message":"Request exceeds the maximum size"}}'],
];

describe("isContextOverflow case 1: provider patterns (session-engine.md §14)", () => {
  it("covers every pattern of the spec list", () => {
    expect(OVERFLOW_PATTERNS).toHaveLength(20);
    expect(new Set(SAMPLES.map(([i]) => i)).size).toBe(OVERFLOW_PATTERNS.length);
  });

  for (const [index, provider, message] of SAMPLES) {
    it(`pattern ${index} (${provider}): ${message.slice(0, 50)}`, () => {
      expect(OVERFLOW_PATTERNS[index]?.test(message)).toBe(true);
      expect(isContextOverflow(error(message))).toBe(true);
    });
  }

  it("matches case-insensitively", () => {
    expect(isContextOverflow(error("PROMPT IS TOO LONG"))).toBe(true);
  });

  it("treats a bare 400/413 with no body as an overflow (Cerebras, Mistral)", () => {
    expect(isContextOverflow(error("400 status code (no body)"))).toBe(true);
    expect(isContextOverflow(error("413 (no body)"))).toBe(true);
    expect(isContextOverflow(error("413 Status Code (No Body)"))).toBe(true);
    expect(isContextOverflow(error("401 status code (no body)"))).toBe(false);
    expect(isContextOverflow(error("Error: 400 status code (no body)"))).toBe(false);
  });

  it("never treats a 429 as an overflow", () => {
    expect(isContextOverflow(error("429 status code (no body)"))).toBe(false);
    expect(isContextOverflow(error("429 Too many tokens per minute, please slow down"))).toBe(false);
    expect(isContextOverflow(error("Rate limit reached: too many tokens per minute (TPM)"))).toBe(false);
  });

  it("needs stopReason error and an errorMessage", () => {
    expect(isContextOverflow({ stopReason: "stop", errorMessage: "prompt is too long" })).toBe(false);
    expect(isContextOverflow({ stopReason: "error" })).toBe(false);
    expect(isContextOverflow(error("Internal server error"))).toBe(false);
    expect(isOverflowErrorMessage("overloaded_error")).toBe(false);
  });
});

describe("isContextOverflow case 2: silent overflow (session-engine.md §14)", () => {
  it("is an overflow when input + cacheRead exceeds the window, for any stopReason", () => {
    for (const stopReason of ["stop", "length", "toolUse", "error", "aborted"] as const) {
      expect(isContextOverflow({ stopReason, usage: { input: 150_000, cacheRead: 60_000 } }, 200_000)).toBe(true);
    }
  });

  it("is not an overflow at exactly the window, or without a window", () => {
    expect(isContextOverflow({ stopReason: "stop", usage: { input: 150_000, cacheRead: 50_000 } }, 200_000)).toBe(false);
    expect(isContextOverflow({ stopReason: "stop", usage: { input: 500_000, cacheRead: 0 } })).toBe(false);
    expect(isContextOverflow({ stopReason: "stop", usage: { input: 500_000, cacheRead: 0 } }, 0)).toBe(false);
  });
});

describe("retryable errors (session-engine.md §14, §13.5)", () => {
  it("matches transient provider failures", () => {
    for (const m of [
      "Overloaded",
      "rate_limit_error: Rate limit exceeded",
      "You have reached your usage limit",
      "429 Too Many Requests",
      "500 Internal Server Error",
      "502 Bad Gateway",
      "503 Service Unavailable",
      "504 Gateway Timeout",
      "service_unavailable",
      "upstream server error",
      "internal error encountered",
      "Connection error.",
      "TypeError: fetch failed",
      "retry delay exceeded",
    ]) {
      expect(isRetryableErrorMessage(m)).toBe(true);
    }
    expect(isRetryableErrorMessage("Invalid API key")).toBe(false);
  });

  it("isRetryableError requires an error, a message, and no overflow", () => {
    expect(isRetryableError(error("503 Service Unavailable"))).toBe(true);
    expect(isRetryableError({ stopReason: "stop", errorMessage: "503" })).toBe(false);
    expect(isRetryableError({ stopReason: "error" })).toBe(false);
    expect(isRetryableError(error("400 Bad Request: invalid tool schema"))).toBe(false);
    // An overflow is never retried even when it also looks transient: compaction handles it.
    expect(isRetryableError(error("500: prompt is too long: 250000 tokens > 200000 maximum"))).toBe(false);
  });
});

describe("parseRetryAfter (session-engine.md §14)", () => {
  const now = Date.parse("2030-01-01T00:00:00Z");

  it("rule 1: retry-after-ms", () => {
    expect(parseRetryAfter("429 rate limited; retry-after-ms: 1500", now)).toBe(1500);
    expect(parseRetryAfter("Retry-After-Ms=250", now)).toBe(250);
  });

  it("rule 2: retry-after in seconds", () => {
    expect(parseRetryAfter("Too many requests, retry-after: 7", now)).toBe(7000);
    expect(parseRetryAfter("retry-after=0.5; reason=busy", now)).toBe(500);
  });

  it("rule 2: retry-after as an HTTP date", () => {
    expect(parseRetryAfter("503 retry-after: Tue, 01 Jan 2030 00:00:30 GMT", now)).toBe(30_000);
    expect(parseRetryAfter("retry-after: 2030-01-01T00:00:12Z", now)).toBe(12_000);
  });

  it("rule 1 wins over rule 2, rule 2 over rules 3 and 4", () => {
    expect(parseRetryAfter("retry-after: 9, retry-after-ms: 100", now)).toBe(100);
    expect(parseRetryAfter("x-ratelimit-reset-ms: 50, retry-after: 2", now)).toBe(2000);
  });

  it("rule 3: x-ratelimit-reset-ms as a duration or an epoch in ms", () => {
    expect(parseRetryAfter("x-ratelimit-reset-ms: 4200", now)).toBe(4200);
    expect(parseRetryAfter(`x-ratelimit-reset-ms: ${now + 3000}`, now)).toBe(3000);
  });

  it("rule 4: x-ratelimit-reset as seconds or an epoch in seconds", () => {
    expect(parseRetryAfter("x-ratelimit-reset: 12", now)).toBe(12_000);
    expect(parseRetryAfter(`x-ratelimit-reset: ${now / 1000 + 20}`, now)).toBe(20_000);
  });

  it("rule 3 wins over rule 4", () => {
    expect(parseRetryAfter("x-ratelimit-reset: 99 x-ratelimit-reset-ms: 10", now)).toBe(10);
  });

  it("clamps past dates and epochs to 0", () => {
    expect(parseRetryAfter("retry-after: Mon, 31 Dec 2029 23:59:00 GMT", now)).toBe(0);
    expect(parseRetryAfter(`x-ratelimit-reset-ms: ${now - 5000}`, now)).toBe(0);
    expect(parseRetryAfter(`x-ratelimit-reset: ${now / 1000 - 5}`, now)).toBe(0);
  });

  it("returns undefined when no rule applies", () => {
    expect(parseRetryAfter("503 Service Unavailable", now)).toBeUndefined();
    expect(parseRetryAfter("retry-after: soon", now)).toBeUndefined();
  });

  it("defaults now to the current time", () => {
    const at = new Date(Date.now() + 60_000).toUTCString();
    const ms = parseRetryAfter(`retry-after: ${at}`);
    expect(ms).toBeGreaterThan(58_000);
    expect(ms).toBeLessThanOrEqual(60_000);
  });
});
