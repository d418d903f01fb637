/**
 * The request guard applied to real requests: the Host check (421) and, for state-changing
 * methods, the Origin check (403) of lib/http/request-guard.ts, with the served port and
 * ARBOR_ALLOWED_HOSTS from the environment. proxy.ts runs it for everything its matcher covers;
 * the two upload routes the matcher skips (/api/import, /api/sessions/[id]/files) call it first.
 * Framework-free: takes a plain Request, answers a plain Response (with the security headers).
 */
import { env, parseAllowedHosts } from "@/lib/env";
import { checkHost, checkOrigin, effectiveHost, type HostPolicy, type Refusal } from "./request-guard";
import { jsonError } from "./json-error";
import { securityHeaders } from "./security-headers";

let policy: HostPolicy | undefined;
function hostPolicy(): HostPolicy {
  policy ??= { port: env.PORT, allowed: parseAllowedHosts(env.ARBOR_ALLOWED_HOSTS) };
  return policy;
}

/** A refusal as a JSON `{ error, code }` response, never cached, with the security headers. */
export function refusalResponse(refusal: Refusal): Response {
  return jsonError(refusal.status, refusal.error, refusal.code, securityHeaders(env.NODE_ENV !== "production"));
}

/** The Host or Origin refusal for `request`, or undefined when it may go on. */
export function refuseForeign(request: Request): Response | undefined {
  // A real request always has Host (Next builds request.url from it); a `new Request(url)` in a
  // test has none, and then the URL's host stands in.
  const host = request.headers.get("host") ?? new URL(request.url).host;
  const forwarded = request.headers.get("x-forwarded-host");
  const refusal =
    checkHost(host, hostPolicy(), forwarded) ??
    checkOrigin({
      method: request.method,
      host: effectiveHost(host, forwarded),
      origin: request.headers.get("origin"),
      secFetchSite: request.headers.get("sec-fetch-site"),
    });
  return refusal ? refusalResponse(refusal) : undefined;
}
