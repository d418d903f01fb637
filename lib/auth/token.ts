/**
 * Session tokens: `v1.<expiresAt ms>.<id>.<signature>`, where id is 16 random bytes and the
 * signature is HMAC-SHA256 over `v1.<expiresAt>.<id>` (base64url). Stateless, so the proxy can
 * check a cookie without a database; sign-out revokes the id in memory (lib/auth/state.ts).
 * Pure apart from node:crypto: the key and the clock are arguments.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

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

/** The HMAC key: derived from ARBOR_SESSION_SECRET when set (survives restarts), else random per process. */
export function sessionKeyFrom(secret: string | undefined): Buffer {
  return secret ? createHmac("sha256", "arbor session cookie v1").update(secret).digest() : randomBytes(32);
}
