/**
 * Who is signing in, for the limiter and the devices list.
 * - The socket address comes from `x-arbor-peer`, which scripts/peer-address.cjs (preloaded by
 *   the launcher) sets from the socket on every request, overwriting what a client sent. Next
 *   itself gives a handler no socket address it could trust: base-server.js does
 *   `x-forwarded-for ??= socket.remoteAddress`, keeping a client's own X-Forwarded-For as is.
 *   Without the preload (plain `next start`, tests calling handlers) the address is "unknown":
 *   every client without a device cookie then shares one bucket, never one the client chose.
 * - X-Forwarded-For is believed only when the socket address is in ARBOR_TRUSTED_PROXIES: the
 *   client is then the right-most entry that is not itself a trusted proxy.
 */
import { env } from "@/lib/env";
import { normalizeIp, parseTrustedProxies, type TrustedProxies } from "./ip";

export const UNKNOWN_ADDRESS = "unknown";
const PEER_FLAG = Symbol.for("arbor.peerHeader");

let trusted: { text: string | undefined; list: TrustedProxies } | undefined;
function trustedProxies(): TrustedProxies {
  if (!trusted || trusted.text !== env.ARBOR_TRUSTED_PROXIES) {
    trusted = { text: env.ARBOR_TRUSTED_PROXIES, list: parseTrustedProxies(env.ARBOR_TRUSTED_PROXIES) };
  }
  return trusted.list;
}

/** The socket address, when the preload vouches for the header; else undefined. */
export function peerAddress(request: Request): string | undefined {
  const header = (globalThis as { [PEER_FLAG]?: string })[PEER_FLAG];
  const value = header ? request.headers.get(header) : null;
  return value ? normalizeIp(value) : undefined;
}

/** The client's address (see the header), or "unknown". */
export function clientAddress(request: Request): string {
  const peer = peerAddress(request);
  if (!peer) return UNKNOWN_ADDRESS;
  const proxies = trustedProxies();
  if (!proxies.has(peer)) return peer;
  const hops = (request.headers.get("x-forwarded-for") ?? "").split(",").map((h) => h.trim()).filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = normalizeIp(hops[i]!);
    if (!hop) return UNKNOWN_ADDRESS; // a garbled entry: nothing left of it can be believed
    if (!proxies.has(hop)) return hop;
  }
  return peer;
}
