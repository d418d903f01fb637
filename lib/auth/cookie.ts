/**
 * The cookies and the request facts sign-in needs. Framework-free (plain Request).
 * - The session cookie (`arbor_session`) is HttpOnly (no script can read it), SameSite=Lax (not
 *   sent on cross-site POSTs), Path=/, Secure when the request came over https, and lives 7 days.
 * - The device cookie (`arbor_device`) has the same attributes and lives a year: it marks a
 *   browser that signed in before, for the limiter (lib/auth/sign-in.ts).
 * - Bound to loopback, both names end in the port (`arbor_session_3000`): browsers do not keep
 *   cookies apart by port, so two local instances would otherwise overwrite each other's.
 *   (For the same reason any other service on 127.0.0.1/localhost gets these cookies, unless
 *   Arbor is opened by its own name, arbor.localhost: README "Sign-in".)
 */
import { env } from "@/lib/env";
import { isLoopbackHost } from "./bind";

export const SESSION_COOKIE = "arbor_session";
export const DEVICE_COOKIE = "arbor_device";
export const SESSION_TTL_SECONDS = 7 * 24 * 60 * 60;
export const DEVICE_TTL_SECONDS = 365 * 24 * 60 * 60;

/** `base` or `base_<PORT>` (see the header); the host defaults to 127.0.0.1 as in scripts/run-app.ts. */
export function cookieName(base: string, { port = env.PORT, host = env.ARBOR_HOST ?? "127.0.0.1" } = {}): string {
  return port !== undefined && isLoopbackHost(host) ? `${base}_${port}` : base;
}
export const sessionCookieName = () => cookieName(SESSION_COOKIE);
export const deviceCookieName = () => cookieName(DEVICE_COOKIE);

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
  return { name: sessionCookieName(), value, httpOnly: true, sameSite: "lax", secure, path: "/", maxAge };
}

export function deviceCookie(value: string, { secure }: { secure: boolean }): CookieSpec {
  return { name: deviceCookieName(), value, httpOnly: true, sameSite: "lax", secure, path: "/", maxAge: DEVICE_TTL_SECONDS };
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
