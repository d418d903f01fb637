import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { deviceKeyFrom, keyIdOf, passwordSaltFrom, sessionKeyFrom, signDeviceToken, signSessionToken, tokenHash, verifyDeviceToken, verifySessionToken } from "./token";

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

  it("are signed with a key from the secret AND the password hash: a new password ends every cookie", () => {
    expect(sessionKeyFrom("s3cret", "scrypt$a").equals(sessionKeyFrom("s3cret", "scrypt$a"))).toBe(true);
    expect(sessionKeyFrom("s3cret", "scrypt$a").equals(sessionKeyFrom("other", "scrypt$a"))).toBe(false);
    expect(sessionKeyFrom("s3cret", "scrypt$a").equals(sessionKeyFrom("s3cret", "scrypt$b"))).toBe(false);
    const { token } = signSessionToken({ key: sessionKeyFrom("s3cret", "scrypt$a"), now, ttlMs });
    expect(verifySessionToken(token, { key: sessionKeyFrom("s3cret", "scrypt$a"), now }).ok).toBe(true);
    expect(verifySessionToken(token, { key: sessionKeyFrom("s3cret", "scrypt$b"), now })).toEqual({ ok: false, reason: "bad_signature" });
    expect(keyIdOf(sessionKeyFrom("s3cret", "scrypt$a"))).toMatch(/^[0-9a-f]{16}$/);
    expect(passwordSaltFrom("s3cret").equals(passwordSaltFrom("s3cret"))).toBe(true);
    expect(passwordSaltFrom("s3cret").equals(passwordSaltFrom("other"))).toBe(false);
  });

  it("are stored as a hash only", () => {
    const { session } = signSessionToken({ key, now, ttlMs });
    expect(tokenHash(session.id)).toMatch(/^[0-9a-f]{64}$/);
    expect(tokenHash(session.id)).not.toContain(session.id);
  });
});

describe("device tokens", () => {
  it("verify under their key only, and resist tampering", () => {
    const dk = deviceKeyFrom("s3cret");
    const { token, id } = signDeviceToken(dk);
    expect(verifyDeviceToken(token, dk)).toBe(id);
    expect(verifyDeviceToken(token, deviceKeyFrom("other"))).toBeUndefined();
    expect(verifyDeviceToken(`${token.slice(0, -2)}AA`, dk)).toBeUndefined();
    for (const bad of [undefined, "", "d1.x.y", "v1.1.aaaaaaaaaaaaaaaaaaaaaa.sig", "a".repeat(500)]) expect(verifyDeviceToken(bad, dk)).toBeUndefined();
  });
});
