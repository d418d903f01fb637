/**
 * Access control at the edge of the app (Next 16 Proxy, Node.js runtime). With ARBOR_PASSWORD
 * unset it lets everything through. With it set, only /login, /api/auth/* and static assets
 * are public: pages redirect to /login?next=<path>, API routes and server actions (POSTs to a
 * page path) answer 401 `{ error: "Sign in required" }`. Actions, routes and pages check again
 * themselves (lib/auth/guard.ts), as the Next docs advise: a proxy can be bypassed by a matcher
 * change.
 */
import { type NextRequest, NextResponse } from "next/server";
import { decideAccess, SIGN_IN_REQUIRED } from "@/lib/auth/access";
import { sessionCookieName } from "@/lib/auth/cookie";
import { hasValidSignature } from "@/lib/auth/signature";
import { authEnabled } from "@/lib/auth/state";

export async function proxy(request: NextRequest) {
  if (!authEnabled()) return NextResponse.next();
  const { pathname, search } = request.nextUrl;
  const decision = decideAccess({
    pathname,
    search,
    method: request.method,
    // Stateless (signature and expiry only): the database check that the session was not signed
    // out happens in every handler, page and action (lib/auth/guard.ts).
    signedIn: await hasValidSignature(request.cookies.get(sessionCookieName())?.value),
  });
  if (decision.kind === "allow") return NextResponse.next();
  if (decision.kind === "redirect") return NextResponse.redirect(new URL(decision.location, request.url), 307);
  return NextResponse.json({ error: SIGN_IN_REQUIRED, code: "unauthorized" }, { status: 401, headers: { "cache-control": "no-store" } });
}

export const config = {
  // Static build output never needs a check; everything else reaches proxy() (which also lets
  // /login and /api/auth/* through) — except the two streaming upload routes: Next buffers and cuts
  // (at 10 MB) the body of every request that passes through a proxy, and a session import may be
  // 256 MB. Those handlers check the sign-in themselves (refuseAnonymous), like every handler.
  matcher: ["/((?!_next/static/|_next/image$|favicon\\.ico$|icon\\.svg$|api/import$|api/sessions/[^/]+/files$).*)"],
};
