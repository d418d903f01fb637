/**
 * What a failure says, for a message or a log line. Pure, browser-safe.
 * - `errorText`: a thrown value: an Error's message, any other value as text (`throw "x"` →
 *   "x"); the one spelling of `e instanceof Error ? e.message : String(e)`.
 * - `errorOfBody` / `readErrorMessage`: the one reader of the routes' JSON error body
 *   `{ error, code }` (lib/http/json-error.ts writes it).
 */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The `error` sentence of a parsed error body, or undefined when it has none. */
export function errorOfBody(body: unknown): string | undefined {
  const error = (body as { error?: unknown } | null)?.error;
  return typeof error === "string" && error !== "" ? error : undefined;
}

/** A failed response's `error` sentence, else its status line ("502 Bad Gateway"). */
export async function readErrorMessage(res: Response): Promise<string> {
  return errorOfBody(await res.json().catch(() => null)) ?? `${res.status} ${res.statusText}`.trim();
}
