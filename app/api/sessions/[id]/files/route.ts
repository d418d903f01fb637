/**
 * The session's workspace files (the folder its tools read and write).
 * - GET → 200 `{ nodes, count, truncated, maxEntries }`: the tree (lib/tools/files.ts
 *   `listWorkspace`, breadth-first, at most MAX_LISTED_ENTRIES entries).
 * - POST ?path=<relative path>, raw body → 201 `{ file: { path, size } }`: stored with
 *   `writeUpload` (parent folders created, an existing file replaced, nothing left behind on
 *   failure). 413 over MAX_UPLOAD_BYTES (declared or streamed), and 413 when fewer bytes arrive
 *   than the Content-Length declared (a proxy cut the body: see lib/chat/workspace-files.ts).
 * The body must be declared `application/octet-stream` (415 otherwise: no cross-site form or
 * "simple" fetch can send that type without a CORS preflight). 421/403 for a foreign Host or
 * Origin (lib/http/guard-request.ts), checked here because the proxy skips this route.
 * Errors are JSON `{ error, code }`: 400 for a malformed id or path and for a refused path
 * (`../x` → "Path \"../x\" is outside the workspace"), 404 for an unknown session; never a 500
 * for an expected file failure.
 */
import { jsonError } from "@/lib/http/route-helpers";
import { exactUploadBody, fileErrorResponse, IncompleteUpload, sessionWorkspace } from "@/lib/chat/workspace-files";
import { MAX_LISTED_ENTRIES, MAX_UPLOAD_BYTES } from "@/lib/chat-protocol/workspace-limits";
import { listWorkspace, writeUpload } from "@/lib/tools/files";
import type { WorkspaceFilesBody } from "@/lib/types/workspace-files";
import { formatBytes } from "@/lib/text/byte-size";
import { parseFilePath, type RouteContext, sessionParamsSchema, sessionRoute } from "../preamble";
import { refuseAnonymous } from "@/lib/auth/guard";
import { refuseForeign } from "@/lib/http/guard-request";
import { checkContentType } from "@/lib/http/request-guard";

export const dynamic = "force-dynamic";

type Ctx = RouteContext<{ id: string }>;
const NO_STORE = { "cache-control": "no-store" };

export async function GET(request: Request, ctx: Ctx) {
  const foreign = refuseForeign(request);
  if (foreign) return foreign;
  const refused = await refuseAnonymous(request);
  if (refused) return refused;
  return sessionRoute(ctx, sessionParamsSchema, async ({ id }) => {
    const ws = await sessionWorkspace(id);
    if (!ws.ok) return ws.response;
    try {
      const listing = await listWorkspace(ws.root, { maxEntries: MAX_LISTED_ENTRIES, signal: request.signal });
      return Response.json({ ...listing, maxEntries: MAX_LISTED_ENTRIES } satisfies WorkspaceFilesBody, { headers: NO_STORE });
    } catch (error) {
      return fileErrorResponse(error, ".");
    }
  });
}

function tooLarge(): Response {
  return jsonError(413, `The file is larger than the ${formatBytes(MAX_UPLOAD_BYTES)} upload limit`, "too_large");
}

export async function POST(request: Request, ctx: Ctx) {
  const foreign = refuseForeign(request);
  if (foreign) return foreign;
  const refused = await refuseAnonymous(request);
  if (refused) return refused;
  return sessionRoute(ctx, sessionParamsSchema, async ({ id }) => {
    const relPath = parseFilePath(request);
    if (!relPath.ok) return relPath.response;
    const wrongType = checkContentType(request.headers.get("content-type"), ["application/octet-stream"], "The uploaded file");
    if (wrongType) {
      await request.body?.cancel().catch(() => undefined);
      return jsonError(415, wrongType.error, "unsupported_media_type");
    }
    const header = request.headers.get("content-length");
    const declared = header !== null && /^\d+$/.test(header) ? Number(header) : undefined;
    if (declared !== undefined && declared > MAX_UPLOAD_BYTES) return tooLarge();
    const ws = await sessionWorkspace(id);
    if (!ws.ok) return ws.response;
    try {
      const body = request.body ? exactUploadBody(request.body, declared, relPath.value) : new Uint8Array(0);
      const file = await writeUpload(ws.root, relPath.value, body, {
        maxBytes: MAX_UPLOAD_BYTES,
        signal: request.signal,
      });
      return Response.json({ file }, { status: 201, headers: NO_STORE });
    } catch (error) {
      if (error instanceof IncompleteUpload) return jsonError(413, error.message, "too_large");
      return fileErrorResponse(error, relPath.value);
    }
  });
}
