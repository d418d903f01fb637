import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { sessionKeyFrom, signSessionToken, verifySessionToken } from "./token";

const key = randomBytes(32);
const now = 1_700_000_000_000;
const ttlMs = 7 * 24 * 3600 * 1000;

describe("session tokens", () => {
  it("verify with the key that signed them, until they expire", () => {
    const { token, session } = signSessionToken({ key, now, ttlMs });
    expect(verifySessionToken(token, { key, now })).toEqual({ ok: true, session });
    expect(verifySessionToken(token, { key, now: now + ttlMs - 1 }).ok).toBe(true);
    expect(verifySessionToken(token, { key, now: now + ttlMs })).toEqual({ ok: false, reason: "expired" });
  });

  it("are random: two sign-ins never share a token", () => {
    expect(signSessionToken({ key, now, ttlMs }).token).not.toBe(signSessionToken({ key, now, ttlMs }).token);
  });

  it("refuse any tampering: a later expiry, another id, another signature, another key", () => {
    const { token } = signSessionToken({ key, now, ttlMs });
    const [v, expires, id, sig] = token.split(".") as [string, string, string, string];
    expect(verifySessionToken([v, String(Number(expires) + 1), id, sig].join("."), { key, now }).ok).toBe(false);
    expect(verifySessionToken([v, expires, `${id.slice(0, -1)}${id.endsWith("A") ? "B" : "A"}`, sig].join("."), { key, now }).ok).toBe(false);
    expect(verifySessionToken([v, expires, id, `${sig.slice(0, -2)}AA`].join("."), { key, now })).toEqual({ ok: false, reason: "bad_signature" });
    expect(verifySessionToken(token, { key: randomBytes(32), now })).toEqual({ ok: false, reason: "bad_signature" });
  });

  it("refuse malformed values without throwing", () => {
    for (const bad of [undefined, "", "x", "v1.1.2", "v2.1.aaaaaaaaaaaaaaaaaaaaaa.sig", "v1.abc.aaaaaaaaaaaaaaaaaaaaaa.sig", "a".repeat(500)]) {
      expect(verifySessionToken(bad, { key, now })).toEqual({ ok: false, reason: "malformed" });
    }
  });

  it("derive a stable key from ARBOR_SESSION_SECRET, else a random one", () => {
    expect(sessionKeyFrom("s3cret").equals(sessionKeyFrom("s3cret"))).toBe(true);
    expect(sessionKeyFrom("s3cret").equals(sessionKeyFrom("other"))).toBe(false);
    expect(sessionKeyFrom(undefined).equals(sessionKeyFrom(undefined))).toBe(false);
    const { token } = signSessionToken({ key: sessionKeyFrom("s3cret"), now, ttlMs });
    expect(verifySessionToken(token, { key: sessionKeyFrom("s3cret"), now }).ok).toBe(true);
  });
});
