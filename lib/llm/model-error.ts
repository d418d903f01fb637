/**
 * Turns whatever a model call threw into the `errorMessage` text stored on an assistant message.
 * Server-side (uses node:http status texts); no network.
 *
 * The text is what the agent's retry and overflow logic reads (session-engine.md §13.5, §14), so it keeps:
 * - the HTTP status code and its reason phrase: "429 Too Many Requests: <provider message>";
 * - a bodiless 4xx as "<status> status code (no body)", the form the §14 no-body pattern expects;
 * - the retry headers `retry-after`, `retry-after-ms`, `x-ratelimit-reset(-ms)` appended as
 *   "retry-after: 2, x-ratelimit-reset-ms: 1500" after the message. No bracket follows a value,
 *   because `parseRetryAfter` reads a retry-after value up to whitespace, "," or ";" only;
 * - transport failures (refused connection, socket closed mid-stream) prefixed with
 *   "Connection error: " and followed by the cause chain; the retryable pattern matches that prefix;
 * - a response Arbor cannot read (not JSON, or JSON of the wrong shape) as one plain sentence
 *   with a short excerpt, instead of the SDK's multi-line parser / validator dump.
 */
import { STATUS_CODES } from "node:http";
import { APICallError, JSONParseError, RetryError, TypeValidationError } from "ai";

const RETRY_HEADERS = ["retry-after-ms", "retry-after", "x-ratelimit-reset-ms", "x-ratelimit-reset"] as const;
const BODY_CHARS = 500;

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** Messages (or codes) of the cause chain, nearest first, at most three deep. */
function causeMessages(error: Error): string[] {
  const out: string[] = [];
  let cause: unknown = error.cause;
  while (cause && typeof cause === "object" && out.length < 3) {
    const text = (cause as { message?: unknown }).message || (cause as { code?: unknown }).code;
    if (typeof text === "string" && text && !out.includes(text) && !error.message.includes(text)) out.push(text);
    cause = (cause as { cause?: unknown }).cause;
  }
  return out;
}

const NETWORK_CODES = /^(ECONNRESET|ECONNREFUSED|EPIPE|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|UND_ERR_\w+)$/;

function isNetworkError(error: Error): boolean {
  if (error.name === "TypeError" && /terminated|fetch failed|network|socket/i.test(error.message)) return true;
  const code = (error as { code?: unknown }).code ?? (error.cause as { code?: unknown } | undefined)?.code;
  return typeof code === "string" && NETWORK_CODES.test(code);
}

function withCause(error: Error): string {
  const causes = causeMessages(error);
  return causes.length ? `${error.message} (${causes.join(": ")})` : error.message;
}

function headerSuffix(headers: Record<string, string> | undefined): string {
  if (!headers) return "";
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  const items = RETRY_HEADERS.filter((h) => lower[h] !== undefined).map((h) => `${h}: ${lower[h]}`);
  return items.length ? `. ${items.join(", ")}` : "";
}

function apiCallErrorMessage(error: APICallError): string {
  const status = error.statusCode;
  // No status: the request never got an answer. A 2xx here means the body broke off mid-stream
  // ("Failed to process successful response", caused by the socket closing).
  if (status === undefined || (status < 300 && error.cause)) return `Connection error: ${withCause(error)}`;
  const reason = STATUS_CODES[status] ?? "Error";
  const body = error.responseBody?.trim() ?? "";
  const message = error.message?.trim() ?? "";
  let head: string;
  if (!body && (!message || message === reason)) head = `${status} status code (no body)`;
  else if (message && message !== reason) head = `${status} ${reason}: ${message}`;
  else head = `${status} ${reason}: ${clip(body, BODY_CHARS)}`;
  const suffix = headerSuffix(error.responseHeaders);
  return suffix ? `${head.replace(/[.\s]+$/, "")}${suffix}` : head;
}

const EXCERPT_CHARS = 120;

function excerpt(value: unknown): string {
  let text: string;
  try {
    text = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return clip(text.replace(/\s+/g, " ").trim(), EXCERPT_CHARS);
}

export function formatModelError(error: unknown): string {
  if (RetryError.isInstance(error)) return formatModelError(error.lastError);
  if (APICallError.isInstance(error)) return apiCallErrorMessage(error);
  if (JSONParseError.isInstance(error)) {
    return `The model server sent a response that is not valid JSON: ${excerpt(error.text)}`;
  }
  if (TypeValidationError.isInstance(error)) {
    return `The model server sent a response in an unexpected format: ${excerpt(error.value)}`;
  }
  if (error instanceof Error) {
    if (isNetworkError(error)) return `Connection error: ${withCause(error)}`;
    return withCause(error) || error.name;
  }
  if (typeof error === "string") return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}
