import { describe, expect, it } from "vitest";
import { addressBucket, LOOPBACK_BUCKET, normalizeIp, parseTrustedProxies } from "./ip";

describe("ARBOR_TRUSTED_PROXIES", () => {
  it("matches addresses and CIDRs, IPv4-mapped IPv6 as IPv4", () => {
    const t = parseTrustedProxies("10.0.0.0/8, 192.168.1.5, ::1, fd00::/8");
    for (const a of ["10.1.2.3", "::ffff:10.9.9.9", "192.168.1.5", "::1", "fd12::1"]) expect(t.has(a)).toBe(true);
    for (const a of ["11.0.0.1", "192.168.1.6", "fe80::1", "garbage", ""]) expect(t.has(a)).toBe(false);
    expect(parseTrustedProxies(undefined).has("127.0.0.1")).toBe(false);
  });
  it("names a bad item", () => {
    expect(() => parseTrustedProxies("10.0.0.0/33")).toThrow('"10.0.0.0/33" is not an IP address or CIDR');
    expect(() => parseTrustedProxies("proxy.example")).toThrow("proxy.example");
  });
});

describe("addresses", () => {
  it("normalise, and IPv6 clients share a bucket per /64", () => {
    expect(normalizeIp("[::ffff:127.0.0.1]")).toBe("127.0.0.1");
    expect(normalizeIp("nope")).toBeUndefined();
    expect(addressBucket("203.0.113.9")).toBe("203.0.113.9");
    expect(addressBucket("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(addressBucket("2001:db8:1:2:bbbb::9")).toBe("2001:db8:1:2::/64");
  });
  it("put all of loopback (127/8, ::1, IPv4-mapped) in one bucket, and nothing else", () => {
    for (const a of ["127.0.0.1", "127.0.0.2", "127.255.255.254", "::1", "[::1]", "::ffff:127.9.9.9", "0:0:0:0:0:0:0:1"]) expect(addressBucket(a)).toBe(LOOPBACK_BUCKET);
    for (const a of ["128.0.0.1", "126.255.255.255", "::2", "::ffff:10.0.0.1"]) expect(addressBucket(a)).not.toBe(LOOPBACK_BUCKET);
  });
});
