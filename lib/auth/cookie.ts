/**
 * The session cookie and the request facts sign-in needs. Framework-free (plain Request).
 * `arbor_session` is HttpOnly (no script can read it), SameSite=Lax (not sent on cross-site
 * POSTs, which blocks cross-site requests to the API and actions), Path=/, Secure when the
 * request came over https, and lives 7 days.
 */

export const SESSION_COOKIE = "arbor_session";
export const SESSION_TTL_SECONDS = 7 * 24 * 60 * 60;

export interface CookieSpec {
  name: string;
  value: string;
  httpOnly: true;
  sameSite: "lax";
  secure: boolean;
  path: "/";
  maxAge: number;
}

export function sessionCookie(value: string, { secure, maxAge = SESSION_TTL_SECONDS }: { secure: boolean; maxAge?: number }): CookieSpec {
  return { name: SESSION_COOKIE, value, httpOnly: true, sameSite: "lax", secure, path: "/", maxAge };
}

/** The cookie that clears the session (same attributes, empty, already expired). */
export function clearedSessionCookie({ secure }: { secure: boolean }): CookieSpec {
  return sessionCookie("", { secure, maxAge: 0 });
}

/** One cookie's value from a Cookie header. */
export function readCookie(header: string | null | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    const raw = part.slice(eq + 1).trim();
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  }
  return undefined;
}

/** https directly, or behind a proxy that says so (Next fills x-forwarded-proto from the socket when absent). */
export function isHttps(request: Request): boolean {
  const forwarded = request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim();
  if (forwarded) return forwarded === "https";
  return new URL(request.url).protocol === "https:";
}

/**
 * The rate limiter's client key: the last X-Forwarded-For entry (the address the nearest hop
 * saw; Next sets it from the socket when a client sends none), else "unknown". A client talking
 * to Arbor directly can forge it, which is why the limiter also has an overall ceiling.
 */
export function clientKey(request: Request): string {
  const forwarded = request.headers.get("x-forwarded-for");
  const last = forwarded?.split(",").at(-1)?.trim();
  return last ? last.slice(0, 100) : (request.headers.get("x-real-ip")?.trim().slice(0, 100) ?? "unknown");
}

/**
 * False for a browser request sent from another site (its Origin names another host). Requests
 * without an Origin (curl, old browsers on same-origin GETs) pass: the SameSite cookie still
 * keeps them from acting as the signed-in user.
 */
export function isSameOrigin(request: Request): boolean {
  const origin = request.headers.get("origin");
  if (!origin) return true;
  const host = request.headers.get("x-forwarded-host")?.split(",")[0]?.trim() || request.headers.get("host") || new URL(request.url).host;
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}
