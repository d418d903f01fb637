import "server-only";
/**
 * The session file routes' access to a session's workspace (the folder its tools work in).
 *
 * Contract:
 * - `sessionWorkspace(sessionId)` resolves the SAME folder `openSessionAgent` gives the tools
 *   (runtime.ts: `resolveWorkspace` under the runtime's workspaces folder), creating it on first
 *   use. It returns `{ ok: false, status: 404 }` for an unknown or deleted session and a 400 for
 *   a session id that cannot be a folder name (imported ids may not be), and a 503 when the
 *   database is unreachable; it never throws for those.
 * - `fileErrorResponse(error, userPath)` turns the expected failures of lib/tools/files.ts into
 *   a JSON 4xx (`{ error, code }`, lib/http/route-helpers.ts): a ToolError or a file-system error keeps
 *   its message, which names the path and the reason ("Path \"../x\" is outside the workspace").
 *   its kind decides the status: not_found a 404, too_large a 413, anything else a 400. Other errors are
 *   bugs and are rethrown (they surface as a 500).
 * - `exactUploadBody(body, declared)` passes an upload through and fails it (IncompleteUpload)
 *   when fewer bytes arrive than its Content-Length declared. Why: with a Next proxy (proxy.ts)
 *   in front, a request body over `experimental.proxyClientMaxBodySize` (10 MB by default) is
 *   silently cut to that size; without this check a truncated file would be stored as if whole.
 *   writeUpload removes its temporary file when the body fails, so nothing is stored.
 */
import { findLiveSession } from "@/lib/db";
import { ToolError, toolErrorFromFs } from "@/lib/tools/errors";
import { databaseUnavailable, jsonError, sessionNotFound } from "@/lib/http/route-helpers";
import { resolveSessionRoot } from "./runtime-config";
import { readSessionConfig } from "@/lib/chat-protocol/session-config";

export type WorkspaceResult = { ok: true; root: string } | { ok: false; response: Response };

export async function sessionWorkspace(sessionId: string): Promise<WorkspaceResult> {
  let meta: Awaited<ReturnType<typeof findLiveSession>>;
  try {
    meta = await findLiveSession({ id: sessionId });
  } catch (error) {
    const unavailable = databaseUnavailable(error);
    if (unavailable) return { ok: false, response: unavailable };
    throw error;
  }
  if (!meta) {
    return { ok: false, response: sessionNotFound(sessionId) };
  }
  try {
    return { ok: true, root: await resolveSessionRoot(sessionId, readSessionConfig(meta.settings).agent.projectDir) };
  } catch (error) {
    return { ok: false, response: fileErrorResponse(error, ".") };
  }
}

/** By the error's kind, never its words. */
const STATUS_OF = {
  not_found: { status: 404, code: "not_found" },
  too_large: { status: 413, code: "too_large" },
  invalid: { status: 400, code: "invalid_input" },
} as const;

/** The 4xx for an expected file failure; rethrows anything else. */
export function fileErrorResponse(error: unknown, userPath: string): Response {
  const expected = error instanceof ToolError ? error : toolErrorFromFs(error, userPath);
  if (!expected) throw error;
  const { status, code } = STATUS_OF[expected.kind];
  return jsonError(status, expected.message, code);
}

/** An upload whose body ended before its declared Content-Length. */
export class IncompleteUpload extends Error {
  override readonly name = "IncompleteUpload";
}

export function exactUploadBody(
  body: ReadableStream<Uint8Array>,
  declared: number | undefined,
  userPath: string,
): ReadableStream<Uint8Array> {
  if (declared === undefined) return body;
  let received = 0;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        received += chunk.byteLength;
        controller.enqueue(chunk);
      },
      flush() {
        if (received < declared) {
          throw new IncompleteUpload(
            `Upload ${JSON.stringify(userPath)} arrived incomplete (${received} of ${declared} bytes); nothing was saved. ` +
              "A proxy in front of Arbor may limit request bodies (Next: experimental.proxyClientMaxBodySize).",
          );
        }
      },
    }),
  );
}
