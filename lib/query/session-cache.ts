/**
 * Updates of the cached session from streamed events (lib/chat-protocol/ui-types.ts `data-entry`): the
 * saved entry's contents go into its per-entry query, and its skeleton row is appended as a
 * `live` row (the server's rows replace it on the next refresh) while the leaf moves.
 * `withSavedEntry` / `withLeaf` are pure; `applySavedEntry` writes to the query client.
 */
import type { QueryClient } from "@tanstack/react-query";
import { type SkeletonEntry, skeletonFacts } from "@/lib/session-view/tree-skeleton";
import { toolCallTexts } from "@/lib/session-view/skeleton-resolve";
import type { SessionEntry } from "@/lib/session/types";
import { seedEntries } from "./entries";
import { keys } from "./keys";
import type { SessionData } from "./session";

export function withSavedEntry(data: SessionData | undefined, row: SkeletonEntry, leafId: string | null): SessionData | undefined {
  if (!data) return data;
  const at = data.live.findIndex((s) => s.id === row.id);
  const live = at >= 0 ? data.live.map((s, i) => (i === at ? row : s)) : [...data.live, row];
  return { ...data, live, session: { ...data.session, leafId, entryCount: data.count + live.length } };
}

export function withLeaf(data: SessionData | undefined, leafId: string | null): SessionData | undefined {
  return data ? { ...data, session: { ...data.session, leafId } } : data;
}

/** Texts of the tool calls streamed in this tab, so a streamed result names its call (§16.2). */
const streamedCalls = new Map<string, string>();

/** The skeleton row of a streamed entry (the client-side twin of the server's resolveSkeleton). */
export function savedEntryRow(entry: SessionEntry): SkeletonEntry {
  for (const [id, text] of toolCallTexts(entry)) streamedCalls.set(id, text);
  const row = skeletonFacts(entry);
  const text = row.toolCallId === undefined ? undefined : streamedCalls.get(row.toolCallId);
  return text === undefined ? row : { ...row, text };
}

export function applySavedEntry(qc: QueryClient, sessionId: string, entry: SessionEntry, leafId: string | null): void {
  seedEntries(qc, sessionId, [entry]);
  qc.setQueryData<SessionData>(keys.session(sessionId), (old) => withSavedEntry(old, savedEntryRow(entry), leafId));
}
