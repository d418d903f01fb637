/**
 * Access checks inside actions, route handlers and pages: defence in depth behind proxy.ts
 * (a matcher change or a moved action must not silently open anything). With sign-in off
 * every check passes without touching cookies, so local use and tests are unchanged.
 *
 * - actions:  `const auth = await requireUser(); if (!auth.ok) return auth;`
 * - routes:   `const refused = await refuseAnonymous(request); if (refused) return refused;`
 * With sign-in on, each check is a database lookup (lib/auth/sessions.ts), so a signed-out or
 * revoked cookie stops working on its next request, whatever the proxy let through.
 * - pages:    `await requirePageUser("/sessions/…");` (redirects to /login)
 * A database that cannot be reached while checking is what it is everywhere else: 503 with
 * Retry-After for routes, `{ ok: false, error: "failed" }` with the plain message for actions
 * (pages throw it to their error boundary, which says so).
 */
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { LOGIN_PATH, SIGN_IN_REQUIRED, safeNextPath } from "./access";
import { readCookie, sessionCookieName } from "./cookie";
import { userFromToken } from "./sessions";
import { type AuthUser, authEnabled, OWNER } from "./state";
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable } from "@/lib/db";
import { jsonError } from "@/lib/http/json-error";
import { databaseUnavailable } from "@/lib/http/route-helpers";

export type { AuthUser } from "./state";

/** The signed-in user of a plain Request (route handlers), or null. */
export async function requestUser(request: Request): Promise<AuthUser | null> {
  if (!authEnabled()) return OWNER;
  return userFromToken(readCookie(request.headers.get("cookie"), sessionCookieName()));
}

/** For route handlers: a 401 JSON response for an anonymous request, else undefined. */
export async function refuseAnonymous(request: Request): Promise<Response | undefined> {
  try {
    if (await requestUser(request)) return undefined;
  } catch (error) {
    const unavailable = databaseUnavailable(error);
    if (unavailable) return unavailable;
    throw error;
  }
  return jsonError(401, SIGN_IN_REQUIRED, "unauthorized");
}

/** For server components and actions: the signed-in user, or null. */
export async function currentUser(): Promise<AuthUser | null> {
  if (!authEnabled()) return OWNER;
  return userFromToken((await cookies()).get(sessionCookieName())?.value);
}

/** For server actions (conventions rule 3): the user, or the `forbidden` result to return as is. */
export async function requireUser(): Promise<{ ok: true; user: AuthUser } | { ok: false; error: "forbidden" | "failed"; message: string }> {
  let user: AuthUser | null;
  try {
    user = await currentUser();
  } catch (error) {
    if (isDatabaseUnavailable(error)) return { ok: false, error: "failed", message: DATABASE_UNAVAILABLE_MESSAGE };
    throw error;
  }
  return user ? { ok: true, user } : { ok: false, error: "forbidden", message: `${SIGN_IN_REQUIRED}: your session has ended, sign in again.` };
}

/** For pages: the user, or a redirect to the login page that comes back to `path`. */
export async function requirePageUser(path: string): Promise<AuthUser> {
  const user = await currentUser();
  if (user) return user;
  const next = safeNextPath(path);
  redirect(next === "/" ? LOGIN_PATH : `${LOGIN_PATH}?next=${encodeURIComponent(next)}`);
}
