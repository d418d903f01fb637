/**
 * Tool-level errors. A `ToolError` is an expected failure the model should see and can react to
 * (bad path, file too large, oldText not unique…); the registry turns it into an `isError` tool
 * result and never rethrows it. Its message always names the path or argument at fault.
 */

/** What kind of failure, for callers outside the model's loop (the file routes' 404 / 413 / 400). */
export type ToolErrorKind = "not_found" | "too_large" | "invalid";

export class ToolError extends Error {
  override readonly name = "ToolError";
  constructor(
    message: string,
    readonly kind: ToolErrorKind = "invalid",
  ) {
    super(message);
  }
}

/** Quotes a user-supplied path for messages, trimmed so a huge path cannot flood the output. */
export function quotePath(p: string): string {
  const shown = p.length > 200 ? `${p.slice(0, 200)}…` : p;
  return JSON.stringify(shown);
}

function errnoCode(error: unknown): string | undefined {
  if (typeof error === "object" && error !== null && "code" in error) {
    const code = (error as { code: unknown }).code;
    return typeof code === "string" ? code : undefined;
  }
  return undefined;
}

/**
 * Maps a Node file-system error to a ToolError naming `userPath`, or returns undefined for
 * errors that are not file-system ones (those are bugs and surface as such).
 */
export function toolErrorFromFs(error: unknown, userPath: string): ToolError | undefined {
  const p = quotePath(userPath);
  switch (errnoCode(error)) {
    case "ENOENT":
      return new ToolError(`Path ${p} does not exist`, "not_found");
    case "ENOTDIR":
      return new ToolError(`Path ${p} goes through something that is not a folder`);
    case "EISDIR":
      return new ToolError(`Path ${p} is a folder, not a file`);
    case "EEXIST":
      return new ToolError(`Path ${p} already exists`);
    case "EACCES":
    case "EPERM":
      return new ToolError(`Permission denied for ${p}`);
    case "ELOOP":
      return new ToolError(`Path ${p} is a symbolic link, which is not followed here`);
    case "ENAMETOOLONG":
      return new ToolError(`Path ${p} is too long`);
    case "ENOSPC":
      return new ToolError(`No space left on the device while writing ${p}`);
    default:
      return undefined;
  }
}

/** True for the error an aborted signal produces (DOMException or Node AbortError). */
export function isAbortError(error: unknown): boolean {
  return (
    typeof error === "object" &&
    error !== null &&
    ((error as { name?: unknown }).name === "AbortError" || errnoCode(error) === "ABORT_ERR")
  );
}
