/**
 * Reading sessions for the MCP tools: a session's metadata and branch or a clear refusal. Read
 * only: nothing here writes (docs/mcp.md).
 */
import { findSessionMeta, loadEntries, loadPath, type SessionMeta } from "@/lib/db";
import type { SessionEntry } from "@/lib/session/types";
import { ToolInputError } from "./bounded";

export const idSchemaNote = "A session id as search_sessions returns it.";

/** The session's metadata; refuses an unknown or deleted id. */
export async function sessionMeta(id: string): Promise<SessionMeta> {
  const meta = await findSessionMeta({ id });
  if (!meta || meta.deletedAt) throw new ToolInputError(`unknown session "${id}"`);
  return meta;
}

/** The path from the root to `leaf` (default: the session's leaf); refuses an id not in the session. */
export async function branchTo(meta: SessionMeta, leaf: string | undefined): Promise<{ leafId: string | null; path: SessionEntry[] }> {
  const leafId = leaf ?? meta.leafId;
  if (leafId === null) return { leafId, path: [] };
  const path = await loadPath({ sessionId: meta.id, leafId });
  if (path.length === 0) throw new ToolInputError(`session "${meta.id}" has no entry "${leafId}"`);
  return { leafId, path };
}

export function allEntries(meta: SessionMeta): Promise<SessionEntry[]> {
  return loadEntries({ sessionId: meta.id });
}

/** The metadata of a live session, or null. */
export async function findSession(id: string): Promise<SessionMeta | null> {
  const meta = await findSessionMeta({ id });
  return meta && !meta.deletedAt ? meta : null;
}
