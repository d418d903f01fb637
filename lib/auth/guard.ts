/**
 * Access checks inside actions, route handlers and pages: defence in depth behind proxy.ts
 * (a matcher change or a moved action must not silently open anything). With sign-in off
 * every check passes without touching cookies, so local use and tests are unchanged.
 *
 * - actions:  `const auth = await requireUser(); if (!auth.ok) return auth;`
 * - routes:   `const refused = refuseAnonymous(request); if (refused) return refused;`
 * - pages:    `await requirePageUser("/sessions/…");` (redirects to /login)
 */
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { LOGIN_PATH, SIGN_IN_REQUIRED, safeNextPath } from "./access";
import { readCookie, SESSION_COOKIE } from "./cookie";
import { type AuthUser, authEnabled, OWNER, userFromToken } from "./state";

export type { AuthUser } from "./state";

/** The signed-in user of a plain Request (route handlers), or null. */
export function requestUser(request: Request): AuthUser | null {
  if (!authEnabled()) return OWNER;
  return userFromToken(readCookie(request.headers.get("cookie"), SESSION_COOKIE));
}

/** For route handlers: a 401 JSON response for an anonymous request, else undefined. */
export function refuseAnonymous(request: Request): Response | undefined {
  if (requestUser(request)) return undefined;
  return Response.json({ error: SIGN_IN_REQUIRED, code: "unauthorized" }, { status: 401, headers: { "cache-control": "no-store" } });
}

/** For server components and actions: the signed-in user, or null. */
export async function currentUser(): Promise<AuthUser | null> {
  if (!authEnabled()) return OWNER;
  return userFromToken((await cookies()).get(SESSION_COOKIE)?.value);
}

/** For server actions (conventions rule 3): the user, or the `forbidden` result to return as is. */
export async function requireUser(): Promise<{ ok: true; user: AuthUser } | { ok: false; error: "forbidden"; message: string }> {
  const user = await currentUser();
  return user ? { ok: true, user } : { ok: false, error: "forbidden", message: `${SIGN_IN_REQUIRED}: your session has ended, sign in again.` };
}

/** For pages: the user, or a redirect to the login page that comes back to `path`. */
export async function requirePageUser(path: string): Promise<AuthUser> {
  const user = await currentUser();
  if (user) return user;
  const next = safeNextPath(path);
  redirect(next === "/" ? LOGIN_PATH : `${LOGIN_PATH}?next=${encodeURIComponent(next)}`);
}
