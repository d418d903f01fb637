import "server-only";
/**
 * "A live session": one that exists and is not in the trash. The one place that applies the soft
 * delete to reads — routes, pages, actions and the chat runtime answer "not found" for anything
 * else, while the store's own reads (getSessionMeta, readSession) still see deleted sessions
 * (restore, import's "already exists" and the trash list need them).
 */
import { NotFoundError } from "../errors";
import { readSession, type SessionView } from "../read-model";
import type { SessionMeta } from "./session-rows";
import { findSessionMeta } from "./read";

/** True for a session that exists and is not soft-deleted. */
export function isLiveSession<M extends { deletedAt: string | null }>(meta: M | null | undefined): meta is M {
  return meta != null && meta.deletedAt === null;
}

/** The session's metadata, or null when it does not exist or is in the trash. */
export async function findLiveSession(input: { id: string }): Promise<SessionMeta | null> {
  const meta = await findSessionMeta(input);
  return isLiveSession(meta) ? meta : null;
}

/** The session from the read model, or null when it does not exist or is in the trash. */
export async function readLiveSession(input: { sessionId: string }): Promise<SessionView | null> {
  try {
    const view = await readSession(input);
    return isLiveSession(view.meta) ? view : null;
  } catch (error) {
    if (error instanceof NotFoundError) return null;
    throw error;
  }
}
