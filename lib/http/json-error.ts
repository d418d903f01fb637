/**
 * The one shape of a JSON error response, `{ error, code }`, for every route, the proxy and the
 * auth guard, and the one reader of it for the browser. `error` is a sentence for the person who
 * sees it (the UI shows it as it is); `code` lets a caller react without parsing the words.
 * Framework-free and browser-safe (plain Response).
 */

export type ErrorCode =
  | "invalid_input"
  | "not_found"
  /** The target exists but the request does not apply to it (e.g. inspecting a user message). */
  | "not_applicable"
  | "busy"
  | "rate_limited"
  | "too_large"
  | "unsupported_media_type"
  | "unavailable"
  | "database_unavailable"
  | "unauthorized"
  | "forbidden_origin"
  | "misdirected"
  /** A file that is already there and is never replaced (a hand-off). */
  | "exists"
  /** A place Arbor may not write to. */
  | "forbidden";

export interface ErrorBody {
  error: string;
  code: ErrorCode;
}

/** `{ error, code }` with `status`, never cached; `headers` are added (e.g. retry-after). */
export function jsonError(status: number, error: string, code: ErrorCode, headers: Record<string, string> = {}): Response {
  const body: ErrorBody = { error, code };
  return Response.json(body, { status, headers: { "cache-control": "no-store", ...headers } });
}
