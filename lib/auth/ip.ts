/**
 * IP addresses and CIDR lists for ARBOR_TRUSTED_PROXIES. Pure apart from node:net (BlockList).
 * IPv4-mapped IPv6 (`::ffff:127.0.0.1`, what a dual-stack socket reports) is treated as IPv4.
 */
import { BlockList, isIP } from "node:net";

/** The address in canonical form for matching, or undefined when it is not an IP address. */
export function normalizeIp(raw: string): string | undefined {
  let a = raw.trim().replace(/^\[(.*)\]$/, "$1");
  const zone = a.indexOf("%");
  if (zone >= 0) a = a.slice(0, zone);
  if (/^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(a)) a = a.slice(7);
  return isIP(a) ? a.toLowerCase() : undefined;
}

export interface TrustedProxies {
  has(address: string): boolean;
}

/** Parses `10.0.0.1, 10.1.0.0/16, ::1`; throws an Error naming the bad item. Empty = trusts nothing. */
export function parseTrustedProxies(text: string | undefined): TrustedProxies {
  const list = new BlockList();
  let any = false;
  for (const item of (text ?? "").split(",").map((s) => s.trim()).filter(Boolean)) {
    const [addr, bits, extra] = item.split("/");
    const ip = addr === undefined ? undefined : normalizeIp(addr);
    const family = ip ? (isIP(ip) === 4 ? "ipv4" : "ipv6") : undefined;
    const max = family === "ipv4" ? 32 : 128;
    const prefix = bits === undefined ? max : /^\d{1,3}$/.test(bits) ? Number(bits) : Number.NaN;
    if (!ip || !family || extra !== undefined || !(prefix >= 0 && prefix <= max)) {
      throw new Error(`"${item}" is not an IP address or CIDR (e.g. 10.0.0.1 or 10.0.0.0/8)`);
    }
    list.addSubnet(ip, prefix, family);
    any = true;
  }
  return {
    has(address) {
      const ip = any ? normalizeIp(address) : undefined;
      return ip !== undefined && list.check(ip, isIP(ip) === 4 ? "ipv4" : "ipv6");
    },
  };
}

/** The limiter's one key for all of loopback. */
export const LOOPBACK_BUCKET = "loopback";

const loopback = new BlockList();
loopback.addSubnet("127.0.0.0", 8, "ipv4");
loopback.addAddress("::1", "ipv6");

/**
 * The limiter's key for an address: loopback as ONE client (on Linux every 127.0.0.0/8 address,
 * like ::1, reaches a server on 127.0.0.1, so a local process could otherwise take a new
 * address, and a new allowance, for every guess); other IPv4 as is; IPv6 by its /64 (one host
 * usually owns a whole /64, so per-address keys would give it 2^64 buckets).
 */
export function addressBucket(address: string): string {
  const ip = normalizeIp(address);
  if (!ip) return address.slice(0, 100);
  if (loopback.check(ip, isIP(ip) === 4 ? "ipv4" : "ipv6")) return LOOPBACK_BUCKET;
  if (isIP(ip) === 4) return ip;
  const [head = "", tail = ""] = ip.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = ip.includes("::") ? [...left, ...Array(8 - left.length - right.length).fill("0"), ...right] : left;
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, "")).join(":")}::/64`;
}
