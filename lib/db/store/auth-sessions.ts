import "server-only";
/**
 * Sign-in sessions in PostgreSQL (table auth_sessions; lib/auth/sessions.ts decides what they
 * mean). Plain typed Prisma reads and writes.
 * Contract:
 * - Rows are found by the sha256 of the cookie's token and the signing key's id; the token
 *   itself is never stored or returned.
 * - `touchAuthSession` moves `lastSeenAt` forward at most once per `LAST_SEEN_STEP_MS`, so a
 *   busy page does not write on every request.
 * - Expired rows are never returned and are deleted by `pruneAuthSessions`.
 */
import { getDb } from "../client";

/** last_seen_at is written at most this often per session. */
export const LAST_SEEN_STEP_MS = 60_000;

export interface AuthSessionRow {
  id: string;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
  userAgent: string;
  clientAddress: string | null;
}

const PUBLIC_FIELDS = { id: true, createdAt: true, lastSeenAt: true, expiresAt: true, userAgent: true, clientAddress: true } as const;

export async function insertAuthSession(row: {
  id: string;
  tokenHash: string;
  keyId: string;
  now: Date;
  expiresAt: Date;
  userAgent: string;
  clientAddress: string | null;
}): Promise<void> {
  await getDb().authSession.create({
    data: {
      id: row.id,
      tokenHash: row.tokenHash,
      keyId: row.keyId,
      createdAt: row.now,
      lastSeenAt: row.now,
      expiresAt: row.expiresAt,
      userAgent: row.userAgent,
      clientAddress: row.clientAddress,
    },
  });
}

/** The live session with this token hash under this key, or null; bumps last_seen_at (see header). */
export async function touchAuthSession({ tokenHash, keyId, now }: { tokenHash: string; keyId: string; now: Date }): Promise<AuthSessionRow | null> {
  const db = getDb();
  const row = await db.authSession.findFirst({ where: { tokenHash, keyId, expiresAt: { gt: now } }, select: PUBLIC_FIELDS });
  if (!row) return null;
  if (now.getTime() - row.lastSeenAt.getTime() >= LAST_SEEN_STEP_MS) {
    // Conditional, so two parallel requests write once.
    await db.authSession.updateMany({ where: { id: row.id, lastSeenAt: row.lastSeenAt }, data: { lastSeenAt: now } });
    row.lastSeenAt = now;
  }
  return row;
}

/** Every live session under this key, most recently seen first. */
export function listAuthSessions({ keyId, now }: { keyId: string; now: Date }): Promise<AuthSessionRow[]> {
  return getDb().authSession.findMany({
    where: { keyId, expiresAt: { gt: now } },
    select: PUBLIC_FIELDS,
    orderBy: [{ lastSeenAt: "desc" }, { id: "asc" }],
  });
}

/** Logout: delete the session with this token hash. */
export async function deleteAuthSessionByToken(tokenHash: string): Promise<void> {
  await getDb().authSession.deleteMany({ where: { tokenHash } });
}

/** "Sign out" of one device: true when a session was deleted. */
export async function deleteAuthSession({ id, keyId }: { id: string; keyId: string }): Promise<boolean> {
  const { count } = await getDb().authSession.deleteMany({ where: { id, keyId } });
  return count > 0;
}

/** "Sign out all other devices": deletes every session under this key but `keepId`; returns how many. */
export async function deleteOtherAuthSessions({ keepId, keyId }: { keepId: string; keyId: string }): Promise<number> {
  const { count } = await getDb().authSession.deleteMany({ where: { keyId, id: { not: keepId } } });
  return count;
}

/** Deletes expired sessions (of any key); returns how many. */
export async function pruneAuthSessions(now: Date): Promise<number> {
  const { count } = await getDb().authSession.deleteMany({ where: { expiresAt: { lte: now } } });
  return count;
}
