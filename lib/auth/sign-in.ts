/**
 * The sign-in decision behind POST /api/auth/login: rate limit first (a refused attempt never
 * reaches the password check), then scrypt verification; a failure is counted, a success
 * forgets the client's failures and issues a session token.
 */
import { verifyPassword } from "./password";
import { issueSession, loginLimiter, passwordHash } from "./state";

export const WRONG_PASSWORD = "Wrong password";

export function tooManyAttemptsMessage(seconds: number): string {
  return `Too many attempts — try again in ${seconds} second${seconds === 1 ? "" : "s"}`;
}

export type SignInResult =
  | { ok: true; token: string; expiresAt: number }
  | { ok: false; status: 401; error: string }
  | { ok: false; status: 429; error: string; retryAfterSeconds: number };

export async function signIn({ password, client, now = Date.now() }: { password: string; client: string; now?: number }): Promise<SignInResult> {
  const limiter = loginLimiter();
  const limit = limiter.check(client, now);
  if (!limit.allowed) return { ok: false, status: 429, error: tooManyAttemptsMessage(limit.retryAfterSeconds), retryAfterSeconds: limit.retryAfterSeconds };
  if (!(await verifyPassword(password, await passwordHash()))) {
    limiter.recordFailure(client, now);
    return { ok: false, status: 401, error: WRONG_PASSWORD };
  }
  limiter.reset(client);
  const { token, session } = issueSession(now);
  return { ok: true, token, expiresAt: session.expiresAt };
}
