/** The result type of every server action: expected failures are values, not exceptions. */
export type ActionError = "invalid_input" | "not_found" | "forbidden" | "conflict" | "failed";

export type ActionResult<T> = { ok: true; data: T } | { ok: false; error: ActionError; message?: string };
