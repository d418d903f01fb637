/**
 * What the proxy does with a request when sign-in is on (proxy.ts applies it).
 * Pure: no framework imports. Public: the login page, /api/auth/*, Next's static assets,
 * the favicon and /mcp (guarded by its bearer token instead). Everything else needs a valid session: pages redirect to /login?next=…, API
 * routes and any other non-GET request (server actions are POSTs to a page path with a
 * `next-action` header) get 401 JSON.
 */

export const LOGIN_PATH = "/login";
export const SIGN_IN_REQUIRED = "Sign in required";

export function isPublicPath(pathname: string): boolean {
  return (
    pathname === LOGIN_PATH ||
    pathname === "/api/auth" ||
    pathname.startsWith("/api/auth/") ||
    pathname.startsWith("/_next/static/") ||
    pathname.startsWith("/_next/image") ||
    pathname === "/favicon.ico" ||
    // The MCP endpoint has its own guard, a bearer token (lib/mcp/http.ts), never a cookie.
    pathname === "/mcp" ||
    pathname === "/icon.svg"
  );
}

export type AccessDecision = { kind: "allow" } | { kind: "redirect"; location: string } | { kind: "unauthorized" };

/**
 * `action`: the request carries a `next-action` header. A server action is never public, whatever
 * path it is posted to: Next forwards an action posted to a page that does not own it (e.g. to
 * /login) to the owning page in an internal request, which this proxy then refuses — and the
 * half-forwarded body surfaced as an `uncaughtException: Error: aborted`. So it is refused here.
 */
export function decideAccess(req: { pathname: string; search: string; method: string; signedIn: boolean; action?: boolean }): AccessDecision {
  if (req.signedIn || (isPublicPath(req.pathname) && !req.action)) return { kind: "allow" };
  const isPage = (req.method === "GET" || req.method === "HEAD") && req.pathname !== "/api" && !req.pathname.startsWith("/api/");
  if (!isPage) return { kind: "unauthorized" };
  const next = `${req.pathname}${stripInternalParams(req.search)}`;
  return { kind: "redirect", location: next === "/" ? LOGIN_PATH : `${LOGIN_PATH}?next=${encodeURIComponent(next)}` };
}

/** `_rsc` is the client router's cache-buster, not part of the page's address. */
function stripInternalParams(search: string): string {
  if (!search || search === "?") return "";
  const params = new URLSearchParams(search);
  params.delete("_rsc");
  const rest = params.toString();
  return rest ? `?${rest}` : "";
}

/**
 * Where to go after signing in: only a path on this site ("/…", never "//host" or "/\host",
 * which browsers treat as another origin), else "/". Control characters are refused too.
 */
export function safeNextPath(raw: unknown): string {
  if (typeof raw !== "string" || raw.length === 0 || raw.length > 2000) return "/";
  if (!raw.startsWith("/") || raw.startsWith("//") || raw.startsWith("/\\")) return "/";
  if (/[\u0000-\u001f\u007f\\]/.test(raw)) return "/";
  if (raw === LOGIN_PATH || raw.startsWith(`${LOGIN_PATH}?`) || raw.startsWith("/api/auth")) return "/";
  return raw;
}
