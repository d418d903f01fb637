/**
 * Pure request checks that keep other sites and other host names out (README "Security"): no network,
 * no framework, no environment — the caller passes the headers and the served port in. Used by
 * proxy.ts for everything its matcher covers, and by the two upload routes it skips.
 *
 * Contracts:
 * - Host (DNS rebinding): the `Host` header must name Arbor. By default that is a loopback name —
 *   `localhost`, `127.0.0.1`, `[::1]` — with the served port (any port when the port is not
 *   known). `*.localhost` is not accepted by default: list it if you use it. Each entry of
 *   ARBOR_ALLOWED_HOSTS is `name` (that name on any port: behind a reverse proxy the public
 *   name usually comes without one) or `name:port`. Anything else: 421 Misdirected Request.
 * - Origin (CSRF), for every method but GET/HEAD/OPTIONS: when `Origin` is sent it must be this
 *   Host, over http or https (one host:port serves one scheme; a TLS-terminating proxy makes the
 *   app see http while the browser says https). `Origin: null` (sandboxed frames, some
 *   redirects) is refused. Without Origin, `Sec-Fetch-Site` must be `same-origin` when sent.
 *   With neither header the request is let through: browsers always send Origin on cross-origin
 *   fetch and form POSTs, so only non-browser clients (curl, scripts) come without, and those
 *   could forge any header anyway. Another port of the same host is another origin: refused.
 * - Content type: `checkContentType` accepts only the listed media types (parameters such as
 *   `charset` ignored); a missing type is refused too. 415 otherwise.
 */
import { type AllowedHost, parseHost } from "@/lib/host-name";

export type Refusal = { status: 403 | 415 | 421; code: "forbidden_origin" | "unsupported_media_type" | "misdirected"; error: string };

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
const LOOPBACK_NAMES = ["localhost", "127.0.0.1", "[::1]"];

export interface HostPolicy {
  /** The port Arbor listens on (PORT); undefined = unknown, loopback names match any port. */
  port?: number;
  allowed: AllowedHost[];
}

function misdirected(host: string | null): Refusal {
  const shown = host === null || host === "" ? "no Host header" : `host "${host.slice(0, 100)}"`;
  return {
    status: 421,
    code: "misdirected",
    error: `This Arbor does not serve ${shown}. Open it as http://localhost:<port> or http://127.0.0.1:<port>, or add the name to ARBOR_ALLOWED_HOSTS.`,
  };
}

function servedName(host: string | null, policy: HostPolicy): boolean {
  const parsed = host === null ? undefined : parseHost(host);
  if (!parsed) return false;
  if (LOOPBACK_NAMES.includes(parsed.name) && (policy.port === undefined || parsed.port === policy.port)) return true;
  return policy.allowed.some((a) => a.name === parsed.name && (a.port === undefined || a.port === parsed.port));
}

/**
 * undefined when `host` (the Host header) names this Arbor, else the 421 refusal. A sent
 * `X-Forwarded-Host` (a reverse proxy's, or a forged one) must name Arbor too: Next's own
 * server-action check prefers it over Host, and a page on a rebinding name could set it.
 */
export function checkHost(host: string | null, policy: HostPolicy, forwardedHost: string | null = null): Refusal | undefined {
  if (!servedName(host, policy)) return misdirected(host);
  if (forwardedHost !== null && !servedName(firstForwarded(forwardedHost), policy)) return misdirected(forwardedHost);
  return undefined;
}

/** A proxy chain sends `a, b`: the first is the name the browser used. */
function firstForwarded(value: string): string {
  return value.split(",")[0]?.trim() ?? "";
}

/** The name the browser used: X-Forwarded-Host when a proxy sent one (checked by checkHost), else Host. */
export function effectiveHost(host: string | null, forwardedHost: string | null): string | null {
  return forwardedHost !== null ? firstForwarded(forwardedHost) : host;
}

export interface OriginInput {
  method: string;
  /** The name the browser used (`effectiveHost`), already accepted by checkHost. */
  host: string | null;
  origin: string | null;
  secFetchSite: string | null;
}

function forbidden(why: string): Refusal {
  return { status: 403, code: "forbidden_origin", error: `Cross-site request refused: ${why}. Arbor only accepts changes from its own pages.` };
}

/** undefined when the request may change state (safe method, or from Arbor's own origin), else 403. */
export function checkOrigin(input: OriginInput): Refusal | undefined {
  if (SAFE_METHODS.has(input.method.toUpperCase())) return undefined;
  if (input.origin !== null) {
    let url: URL;
    try {
      url = new URL(input.origin);
    } catch {
      return forbidden(`Origin "${input.origin.slice(0, 100)}" is not an origin`);
    }
    const host = input.host?.trim().toLowerCase();
    if ((url.protocol === "http:" || url.protocol === "https:") && host && url.host === host) return undefined;
    return forbidden(`Origin ${input.origin.slice(0, 100)} is not this server (${input.host ?? "no Host"})`);
  }
  if (input.secFetchSite !== null && input.secFetchSite.toLowerCase() !== "same-origin") {
    return forbidden(`Sec-Fetch-Site is ${input.secFetchSite.slice(0, 30)}`);
  }
  return undefined;
}

/** The media type of a Content-Type header without parameters, lower-cased; "" when absent. */
export function mediaType(contentType: string | null): string {
  return (contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
}

/** undefined when the body's type is one of `accepted`, else 415 saying which type to send. */
export function checkContentType(contentType: string | null, accepted: readonly string[], what = "The request body"): Refusal | undefined {
  const type = mediaType(contentType);
  if (accepted.includes(type)) return undefined;
  const sent = type === "" ? "; it was sent without a content type" : `, not ${type}`;
  return { status: 415, code: "unsupported_media_type", error: `${what} must be sent as content-type: ${accepted.join(" or ")}${sent}` };
}
