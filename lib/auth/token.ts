/**
 * Session tokens: `v1.<expiresAt ms>.<id>.<signature>`, where id is 16 random bytes and the
 * signature is HMAC-SHA256 over `v1.<expiresAt>.<id>` (base64url). The signature lets the proxy
 * refuse forged or expired cookies without a database; whether the session still exists (not
 * signed out) is a database lookup by `tokenHash(id)` (lib/auth/sessions.ts).
 * Device tokens (`d1.<id>.<signature>`) name a browser that has signed in before (the sign-in
 * limiter gives it its own bucket: lib/auth/rate-limit.ts).
 * Pure apart from node:crypto: keys and the clock are arguments.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export interface SessionToken {
  id: string;
  expiresAt: number;
}

export type TokenCheck = { ok: true; session: SessionToken } | { ok: false; reason: "malformed" | "bad_signature" | "expired" };

const VERSION = "v1";

function sign(key: Buffer, payload: string): string {
  return createHmac("sha256", key).update(payload).digest("base64url");
}

export function signSessionToken({ key, now, ttlMs }: { key: Buffer; now: number; ttlMs: number }): { token: string; session: SessionToken } {
  const session = { id: randomBytes(16).toString("base64url"), expiresAt: now + ttlMs };
  const payload = `${VERSION}.${session.expiresAt}.${session.id}`;
  return { token: `${payload}.${sign(key, payload)}`, session };
}

export function verifySessionToken(token: string | undefined, { key, now }: { key: Buffer; now: number }): TokenCheck {
  if (!token || token.length > 200) return { ok: false, reason: "malformed" };
  const parts = token.split(".");
  if (parts.length !== 4 || parts[0] !== VERSION) return { ok: false, reason: "malformed" };
  const [, expires, id, signature] = parts as [string, string, string, string];
  if (!/^\d{1,16}$/.test(expires) || !/^[\w-]{16,64}$/.test(id)) return { ok: false, reason: "malformed" };
  const expected = Buffer.from(sign(key, `${VERSION}.${expires}.${id}`));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: "bad_signature" };
  const expiresAt = Number(expires);
  if (expiresAt <= now) return { ok: false, reason: "expired" };
  return { ok: true, session: { id, expiresAt } };
}

/**
 * The session cookie's HMAC key, from the secret AND the password hash (its text form): a new
 * password, or a new secret, ends every cookie issued before.
 */
export function sessionKeyFrom(secret: string, passwordHash: string): Buffer {
  return createHmac("sha256", secret).update("arbor session cookie v2\0").update(passwordHash).digest();
}

/** The device cookie's key: the secret only, so a browser stays known across password changes. */
export function deviceKeyFrom(secret: string): Buffer {
  return createHmac("sha256", secret).update("arbor device cookie v1").digest();
}

/** A stable salt for hashing ARBOR_PASSWORD, so the same password and secret give the same key after a restart. */
export function passwordSaltFrom(secret: string): Buffer {
  return createHmac("sha256", secret).update("arbor password salt v1").digest().subarray(0, 16);
}

/** A short public name of a key (stored with each session row; never enough to rebuild the key). */
export function keyIdOf(key: Buffer): string {
  return createHash("sha256").update(key).digest("hex").slice(0, 16);
}

/** What the database stores for a session: the sha256 (hex) of its random id, never the id. */
export function tokenHash(id: string): string {
  return createHash("sha256").update(id).digest("hex");
}

const DEVICE_VERSION = "d1";

export function signDeviceToken(key: Buffer): { token: string; id: string } {
  const id = randomBytes(16).toString("base64url");
  const payload = `${DEVICE_VERSION}.${id}`;
  return { token: `${payload}.${sign(key, payload)}`, id };
}

/** The device id of a valid device token, else undefined. */
export function verifyDeviceToken(token: string | undefined, key: Buffer): string | undefined {
  if (!token || token.length > 200) return undefined;
  const parts = token.split(".");
  if (parts.length !== 3 || parts[0] !== DEVICE_VERSION || !/^[\w-]{16,64}$/.test(parts[1]!)) return undefined;
  const expected = Buffer.from(sign(key, `${DEVICE_VERSION}.${parts[1]}`));
  const given = Buffer.from(parts[2]!);
  return given.length === expected.length && timingSafeEqual(given, expected) ? parts[1] : undefined;
}
