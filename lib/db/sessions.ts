import "server-only";
/**
 * Compatibility facade for the first app shell (home page, session page, actions). New code
 * imports from lib/db/session-store (or the module that owns the function).
 */
import { listSessions as listSessionPage } from "./session-list";
import type { SessionSummary } from "./session-rows";
import { findSessionMeta } from "./store-read";

export type { SessionMeta, SessionSummary } from "./session-rows";
export { createSession } from "./store-session";

/**
 * @deprecated The first page only; use `listSessions` from lib/db/session-list (paging, search).
 */
export async function listSessions(): Promise<SessionSummary[]> {
  return (await listSessionPage({ limit: 100 })).sessions;
}

/** The session's summary, or null when it does not exist or is in the trash. */
export async function getSession(id: string): Promise<SessionSummary | null> {
  const meta = await findSessionMeta({ id });
  if (!meta || meta.deletedAt) return null;
  const { id: sid, title, entryCount, model, createdAt, lastActivityAt, deletedAt } = meta;
  return { id: sid, title, entryCount, model, createdAt, lastActivityAt, deletedAt };
}
