/**
 * The process's sign-in state, built from the environment on first use.
 * - Sign-in is on exactly when ARBOR_PASSWORD_HASH (what the launcher passes) or ARBOR_PASSWORD
 *   (accepted when Next is started directly) is set. Only the hash is kept here.
 * - The cookie key comes from the secret (lib/auth/secret.ts) AND the password hash
 *   (lib/auth/token.ts), so a new password ends every earlier cookie. A plaintext password is
 *   hashed with a salt derived from the secret, so the key survives restarts.
 * - The limiter lives in memory; sessions live in PostgreSQL (lib/auth/sessions.ts).
 * It is kept on globalThis because proxy.ts and the app are separate bundles in one process:
 * module-level variables would give each its own key.
 */
import { env } from "@/lib/env";
import { formatPasswordHash, hashPassword, type PasswordHash, parsePasswordHash } from "./password";
import { createRateLimiter, type RateLimiter } from "./rate-limit";
import { sessionSecret } from "./secret";
import { deviceKeyFrom, keyIdOf, passwordSaltFrom, sessionKeyFrom } from "./token";

export interface AuthUser {
  /** Arbor has one user, the owner of the password. */
  id: "owner";
  /** The auth_sessions row of this sign-in; null when sign-in is off. */
  sessionId: string | null;
}
export const OWNER: AuthUser = { id: "owner", sessionId: null };

/**
 * 5 attempts at once per bucket, then 30 s, 60 s, 120 s … up to an hour between attempts;
 * a bucket left alone for an hour starts over.
 */
export const LOGIN_LIMITS = { free: 5, baseMs: 30_000, maxMs: 3_600_000, idleMs: 3_600_000 };

export interface AuthKeys {
  hash: PasswordHash;
  /** Signs session cookies (secret + password hash). */
  sessionKey: Buffer;
  /** Public name of sessionKey, stored with each session row. */
  keyId: string;
  /** Signs device cookies (secret only). */
  deviceKey: Buffer;
}

interface AuthState {
  keys: Promise<AuthKeys> | undefined;
  limiter: RateLimiter;
}

const SLOT = Symbol.for("arbor.auth.state");

function state(): AuthState {
  const g = globalThis as { [SLOT]?: AuthState };
  g[SLOT] ??= { keys: undefined, limiter: createRateLimiter(LOGIN_LIMITS) };
  return g[SLOT];
}

export function authEnabled(): boolean {
  return env.ARBOR_PASSWORD !== undefined || env.ARBOR_PASSWORD_HASH !== undefined;
}

async function buildKeys(): Promise<AuthKeys> {
  if (env.ARBOR_PASSWORD !== undefined && env.ARBOR_PASSWORD_HASH !== undefined) {
    throw new Error("Set ARBOR_PASSWORD or ARBOR_PASSWORD_HASH, not both");
  }
  const secret = sessionSecret();
  let hash: PasswordHash;
  if (env.ARBOR_PASSWORD_HASH !== undefined) {
    try {
      hash = parsePasswordHash(env.ARBOR_PASSWORD_HASH);
    } catch (error) {
      throw new Error(`ARBOR_PASSWORD_HASH: ${(error as Error).message}`);
    }
  } else if (env.ARBOR_PASSWORD !== undefined) {
    hash = await hashPassword(env.ARBOR_PASSWORD, undefined, passwordSaltFrom(secret));
  } else {
    throw new Error("sign-in is off: neither ARBOR_PASSWORD nor ARBOR_PASSWORD_HASH is set");
  }
  const sessionKey = sessionKeyFrom(secret, formatPasswordHash(hash));
  return { hash, sessionKey, keyId: keyIdOf(sessionKey), deviceKey: deviceKeyFrom(secret) };
}

/** The password hash and the keys, computed once per process (a failure is retried next time). */
export function authKeys(): Promise<AuthKeys> {
  const s = state();
  if (s.keys) return s.keys;
  const keys = buildKeys();
  s.keys = keys;
  keys.catch(() => {
    if (s.keys === keys) s.keys = undefined;
  });
  return keys;
}

export function loginLimiter(): RateLimiter {
  return state().limiter;
}

/**
 * Drops the in-memory state, as a restart does (tests: a new process on the same database, or a
 * changed password after `env` was edited).
 */
export function forgetAuthState(): void {
  delete (globalThis as { [SLOT]?: AuthState })[SLOT];
}
