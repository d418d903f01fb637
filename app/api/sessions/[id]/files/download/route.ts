/**
 * GET /api/sessions/[id]/files/download?path=<relative path> — streams one workspace file
 * (lib/tools/files.ts `readForDownload`: no symlinks followed, regular files only) with its
 * detected content type and `content-disposition: attachment`, so a browser saves it rather than
 * rendering it on Arbor's origin (`nosniff` and a sandbox CSP back that up).
 * JSON `{ error, code }` errors: 400 for a malformed id or a refused path (`../x` → "Path
 * \"../x\" is outside the workspace", a folder → "… is not a regular file"), 404 for an unknown
 * session or a missing file.
 */
import { fileErrorResponse, sessionWorkspace } from "@/lib/chat/workspace-files";
import { readForDownload } from "@/lib/tools/files";
import { attachmentHeader } from "@/lib/http/attachment";
import { parseFilePath, sessionParamsSchema, sessionRoute } from "../../preamble";
import { refuseAnonymous } from "@/lib/auth/guard";

export const dynamic = "force-dynamic";

function contentType(mimeType: string): string {
  return mimeType.startsWith("text/") || mimeType === "application/json" ? `${mimeType}; charset=utf-8` : mimeType;
}

export async function GET(request: Request, ctx: { params: Promise<{ id: string }> }) {
  const refused = await refuseAnonymous(request);
  if (refused) return refused;
  return sessionRoute(ctx, sessionParamsSchema, async ({ id }) => {
    const relPath = parseFilePath(request);
    if (!relPath.ok) return relPath.response;
    const ws = await sessionWorkspace(id);
    if (!ws.ok) return ws.response;
    try {
      const file = await readForDownload(ws.root, relPath.value);
      return new Response(file.stream, {
        headers: {
          "content-type": contentType(file.mimeType),
          "content-disposition": attachmentHeader(file.name),
          "cache-control": "no-store",
          "x-content-type-options": "nosniff",
          "content-security-policy": "sandbox",
        },
      });
    } catch (error) {
      return fileErrorResponse(error, relPath.value);
    }
  });
}
