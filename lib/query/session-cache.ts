/**
 * Updates of the cached session data from streamed events (lib/chat/ui-types.ts `data-entry`):
 * an entry the server saved is appended (or replaces the same id after a refetch) and the leaf
 * moves. Pure.
 */
import type { SessionEntry } from "@/lib/session/types";
import type { SessionData } from "./session";

export function withSavedEntry(data: SessionData | undefined, entry: SessionEntry, leafId: string | null): SessionData | undefined {
  if (!data) return data;
  const at = data.entries.findIndex((e) => e.id === entry.id);
  const entries = at >= 0 ? data.entries.map((e, i) => (i === at ? entry : e)) : [...data.entries, entry];
  return { ...data, entries, session: { ...data.session, leafId, entryCount: entries.length } };
}

export function withLeaf(data: SessionData | undefined, leafId: string | null): SessionData | undefined {
  return data ? { ...data, session: { ...data.session, leafId } } : data;
}
