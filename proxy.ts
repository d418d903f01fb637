/**
 * The edge of the app (Next 16 Proxy, Node.js runtime), in two steps:
 * 1. Always, sign-in or not: the Host check (421 for a name Arbor does not serve: DNS
 *    rebinding) and, for state-changing methods, the Origin check (403 for another site or
 *    another port) — lib/http/guard-request.ts. Server actions are POSTs to page paths, so they
 *    pass here too; Next's own action check compares Origin with X-Forwarded-Host/Host, which
 *    step 1 has already pinned to names Arbor serves.
 * 2. With ARBOR_PASSWORD set, access control: only /login, /api/auth/* and static assets are
 *    public; pages redirect to /login?next=<path>, API routes and server actions answer 401
 *    `{ error: "Sign in required" }`. Actions, routes and pages check again themselves
 *    (lib/auth/guard.ts), as the Next docs advise: a proxy can be bypassed by a matcher change.
 * The responses made here carry the security headers (next.config.ts sets them on the rest).
 */
import { type NextRequest, NextResponse } from "next/server";
import { decideAccess, SIGN_IN_REQUIRED } from "@/lib/auth/access";
import { sessionCookieName } from "@/lib/auth/cookie";
import { hasValidSignature } from "@/lib/auth/signature";
import { authEnabled } from "@/lib/auth/state";
import { env } from "@/lib/env";
import { refuseForeign } from "@/lib/http/guard-request";
import { MAX_ACTION_NESTING, nestsDeeperThan } from "@/lib/http/action-nesting";
import { jsonError } from "@/lib/http/json-error";
import { securityHeaders } from "@/lib/http/security-headers";

function withHeaders<R extends Response>(response: R): R {
  for (const [key, value] of Object.entries(securityHeaders(env.NODE_ENV !== "production"))) response.headers.set(key, value);
  return response;
}

/**
 * Reads and drops the body of a request answered here. Left unread, the client's later close of
 * the connection surfaced in Next as an `uncaughtException: Error: aborted` (seen for refused
 * browser posts and anonymous action POSTs to /login). Bounded: Next cuts proxied bodies at 10 MB.
 */
function answer<R extends Response>(request: NextRequest, response: R): R {
  void request.arrayBuffer().catch(() => undefined);
  return response;
}

/** A server action whose arguments nest too deeply for Next's decoder: 400 (lib/http/action-nesting.ts). */
async function tooDeepAction(request: NextRequest): Promise<Response | undefined> {
  if (request.method !== "POST" || !request.headers.has("next-action")) return undefined;
  const text = await request.clone().text();
  if (!nestsDeeperThan(text, MAX_ACTION_NESTING)) return undefined;
  return withHeaders(jsonError(400, `The action's arguments are nested too deeply (at most ${MAX_ACTION_NESTING} levels)`, "invalid_input"));
}

export async function proxy(request: NextRequest) {
  const refused = refuseForeign(request);
  if (refused) return answer(request, refused);
  const tooDeep = await tooDeepAction(request);
  if (tooDeep) return answer(request, tooDeep);
  if (!authEnabled()) return NextResponse.next();
  const { pathname, search } = request.nextUrl;
  const decision = decideAccess({
    pathname,
    search,
    method: request.method,
    action: request.headers.has("next-action"),
    // Stateless (signature and expiry only): the database check that the session was not signed
    // out happens in every handler, page and action (lib/auth/guard.ts).
    signedIn: await hasValidSignature(request.cookies.get(sessionCookieName())?.value),
  });
  if (decision.kind === "allow") return NextResponse.next();
  if (decision.kind === "redirect") return answer(request, withHeaders(NextResponse.redirect(new URL(decision.location, request.url), 307)));
  return answer(request, withHeaders(jsonError(401, SIGN_IN_REQUIRED, "unauthorized")));
}

export const config = {
  // Everything reaches proxy() — except the static build output (public, content-hashed files:
  // no Host or Origin check is needed to hand them out) and the two streaming upload routes:
  // Next buffers and cuts (at 10 MB) the body of every request that passes through a proxy, and
  // a session import may be 256 MB. Those two handlers call refuseForeign and refuseAnonymous
  // themselves, first thing.
  matcher: ["/((?!_next/static/|_next/image$|favicon\\.ico$|icon\\.svg$|api/import$|api/sessions/[^/]+/files$).*)"],
};
