/**
 * Sign-in sessions: a signed cookie (lib/auth/token.ts) plus a row in PostgreSQL
 * (lib/db/store/auth-sessions.ts). The signature is checked first (cheap, no database: what proxy.ts
 * uses); a cookie then counts only while its row exists, so logout, "sign out" in the devices
 * list and expiry hold across restarts. Rows store sha256 of the cookie's random id.
 */
import {
  type AuthSessionRow,
  deleteAuthSession,
  deleteAuthSessionByToken,
  deleteOtherAuthSessions,
  insertAuthSession,
  listAuthSessions,
  pruneAuthSessions,
  touchAuthSession,
} from "@/lib/db";
import { SESSION_TTL_SECONDS } from "./cookie";
import { type AuthUser, authKeys } from "./state";
import { signSessionToken, tokenHash, verifySessionToken } from "./token";

export const USER_AGENT_MAX = 300;

/** Signs a new session and stores its row; expired rows are pruned on the way. */
export async function issueSession({ userAgent, clientAddress, now = Date.now() }: { userAgent: string | null; clientAddress: string | null; now?: number }) {
  const keys = await authKeys();
  const { token, session } = signSessionToken({ key: keys.sessionKey, now, ttlMs: SESSION_TTL_SECONDS * 1000 });
  await pruneAuthSessions(new Date(now));
  await insertAuthSession({
    id: crypto.randomUUID(),
    tokenHash: tokenHash(session.id),
    keyId: keys.keyId,
    now: new Date(now),
    expiresAt: new Date(session.expiresAt),
    userAgent: (userAgent ?? "").slice(0, USER_AGENT_MAX),
    clientAddress: clientAddress ? clientAddress.slice(0, 64) : null,
  });
  return { token, expiresAt: session.expiresAt };
}

/** The user a session cookie stands for, or null (missing, forged, expired, signed out, old password). */
export async function userFromToken(token: string | undefined, now = Date.now()): Promise<AuthUser | null> {
  if (!token) return null;
  const keys = await authKeys();
  const check = verifySessionToken(token, { key: keys.sessionKey, now });
  if (!check.ok) return null;
  const row = await touchAuthSession({ tokenHash: tokenHash(check.session.id), keyId: keys.keyId, now: new Date(now) });
  return row ? { id: "owner", sessionId: row.id } : null;
}

/** Logout: deletes the cookie's session (a forged or expired cookie has none to delete). */
export async function endSession(token: string | undefined, now = Date.now()): Promise<void> {
  if (!token) return;
  const check = verifySessionToken(token, { key: (await authKeys()).sessionKey, now });
  if (check.ok) await deleteAuthSessionByToken(tokenHash(check.session.id));
}

export interface SignedInDevice extends AuthSessionRow {
  /** The session of the browser asking. */
  current: boolean;
}

/** Every signed-in device under the current password, this one marked. */
export async function listDevices({ currentSessionId, now = Date.now() }: { currentSessionId: string | null; now?: number }): Promise<SignedInDevice[]> {
  const rows = await listAuthSessions({ keyId: (await authKeys()).keyId, now: new Date(now) });
  return rows.map((row) => ({ ...row, current: row.id === currentSessionId }));
}

/** Signs one device out; false when there was no such session. */
export async function signOutDevice(id: string): Promise<boolean> {
  return deleteAuthSession({ id, keyId: (await authKeys()).keyId });
}

/** Signs out every device but `keepSessionId`; returns how many. */
export async function signOutOtherDevices(keepSessionId: string): Promise<number> {
  return deleteOtherAuthSessions({ keepId: keepSessionId, keyId: (await authKeys()).keyId });
}
