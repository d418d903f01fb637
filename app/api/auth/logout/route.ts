/**
 * POST /api/auth/logout — sign out (public, so an expired session can still clear its cookie).
 * Deletes the session's row (so the cookie stays dead after a restart) and clears the cookie. A form post (the header's "Sign out")
 * gets a 303 to /login; other requests 200 `{ ok: true }`. 403 for a cross-site request, 503 with
 * Retry-After when the database cannot be reached.
 */
import { NextResponse } from "next/server";
import { LOGIN_PATH } from "@/lib/auth/access";
import { clearedSessionCookie, isHttps, isSameOrigin, readCookie, sessionCookieName } from "@/lib/auth/cookie";
import { endSession } from "@/lib/auth/sessions";
import { authEnabled } from "@/lib/auth/state";
import { jsonError, withDatabaseErrors } from "@/lib/http/route-helpers";

export const dynamic = "force-dynamic";

export async function POST(request: Request): Promise<Response> {
  if (!isSameOrigin(request)) return jsonError(403, "Cross-site sign-out refused", "forbidden_origin");
  // Unreachable database: 503, and the cookie is kept, since its session could not be ended.
  return withDatabaseErrors(async () => {
    if (authEnabled()) await endSession(readCookie(request.headers.get("cookie"), sessionCookieName()));
    return signedOut(request);
  });
}

function signedOut(request: Request): Response {
  const isForm = /^application\/x-www-form-urlencoded|^multipart\/form-data/i.test(request.headers.get("content-type") ?? "");
  const response = isForm
    ? new NextResponse(null, { status: 303, headers: { location: authEnabled() ? LOGIN_PATH : "/", "cache-control": "no-store" } })
    : NextResponse.json({ ok: true }, { headers: { "cache-control": "no-store" } });
  response.cookies.set(clearedSessionCookie({ secure: isHttps(request) }));
  return response;
}
