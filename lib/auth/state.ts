/**
 * The process's sign-in state, built from the environment on first use.
 * - Sign-in is on exactly when ARBOR_PASSWORD is set.
 * - The password is hashed once (scrypt) and only the hash is kept here.
 * - The HMAC key comes from ARBOR_SESSION_SECRET, else 32 random bytes per process: then a
 *   restart signs everyone out, which is acceptable for a single-user tool.
 * - Revoked session ids (sign-out) and the sign-in limiter live in memory.
 * It is kept on globalThis because proxy.ts and the app are separate bundles in one process:
 * module-level variables would give each its own key.
 */
import { env } from "@/lib/env";
import { hashPassword, type PasswordHash } from "./password";
import { createRateLimiter, type RateLimiter } from "./rate-limit";
import { type SessionToken, sessionKeyFrom, signSessionToken, verifySessionToken } from "./token";
import { SESSION_TTL_SECONDS } from "./cookie";

export interface AuthUser {
  /** Arbor has one user, the owner of the password. */
  id: "owner";
}
export const OWNER: AuthUser = { id: "owner" };

/** 5 failed sign-ins per client per minute; 30 per minute from everyone together. */
export const LOGIN_LIMITS = { perClient: 5, overall: 30, windowMs: 60_000 };

interface AuthState {
  key: Buffer;
  hash: Promise<PasswordHash> | undefined;
  limiter: RateLimiter;
  revoked: Map<string, number>;
}

const SLOT = Symbol.for("arbor.auth.state");

function state(): AuthState {
  const g = globalThis as { [SLOT]?: AuthState };
  g[SLOT] ??= {
    key: sessionKeyFrom(env.ARBOR_SESSION_SECRET),
    hash: undefined,
    limiter: createRateLimiter(LOGIN_LIMITS),
    revoked: new Map(),
  };
  return g[SLOT];
}

export function authEnabled(): boolean {
  return env.ARBOR_PASSWORD !== undefined;
}

/** The configured password's hash, computed once per process. */
export function passwordHash(): Promise<PasswordHash> {
  const s = state();
  const password = env.ARBOR_PASSWORD;
  if (password === undefined) return Promise.reject(new Error("sign-in is off: ARBOR_PASSWORD is not set"));
  s.hash ??= hashPassword(password);
  return s.hash;
}

export function loginLimiter(): RateLimiter {
  return state().limiter;
}

export function issueSession(now = Date.now()): { token: string; session: SessionToken } {
  return signSessionToken({ key: state().key, now, ttlMs: SESSION_TTL_SECONDS * 1000 });
}

/** The user a session cookie stands for, or null (missing, forged, expired or signed out). */
export function userFromToken(token: string | undefined, now = Date.now()): AuthUser | null {
  const check = verifySessionToken(token, { key: state().key, now });
  if (!check.ok || state().revoked.has(check.session.id)) return null;
  return OWNER;
}

/** Sign-out: the token stops working here even though the browser could still send it. */
export function revokeToken(token: string | undefined, now = Date.now()): void {
  const s = state();
  const check = verifySessionToken(token, { key: s.key, now });
  if (!check.ok) return;
  for (const [id, expiresAt] of s.revoked) if (expiresAt <= now) s.revoked.delete(id);
  s.revoked.set(check.session.id, check.session.expiresAt);
}
