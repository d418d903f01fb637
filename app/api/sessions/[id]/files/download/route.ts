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
import { parseFilePath, parseSessionId } from "../params";
import { refuseAnonymous } from "@/lib/auth/guard";
import { downloadContentSecurityPolicy } from "@/lib/http/security-headers";
import { env } from "@/lib/env";

export const dynamic = "force-dynamic";

/** RFC 6266: an ASCII fallback `filename`, plus `filename*` carrying the real UTF-8 name. */
function attachmentHeader(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

function contentType(mimeType: string): string {
  return mimeType.startsWith("text/") || mimeType === "application/json" ? `${mimeType}; charset=utf-8` : mimeType;
}

export async function GET(request: Request, ctx: { params: Promise<{ id: string }> }) {
  const refused = await refuseAnonymous(request);
  if (refused) return refused;
  const id = await parseSessionId(ctx);
  if (!id.ok) return id.response;
  const relPath = parseFilePath(request);
  if (!relPath.ok) return relPath.response;
  const ws = await sessionWorkspace(id.value);
  if (!ws.ok) return ws.response;
  try {
    const file = await readForDownload(ws.root, relPath.value);
    return new Response(file.stream, {
      headers: {
        "content-type": contentType(file.mimeType),
        "content-disposition": attachmentHeader(file.name),
        "cache-control": "no-store",
        "x-content-type-options": "nosniff",
        "content-security-policy": downloadContentSecurityPolicy(env.NODE_ENV !== "production"),
      },
    });
  } catch (error) {
    return fileErrorResponse(error, relPath.value);
  }
}
