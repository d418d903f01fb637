import "server-only";
/**
 * TEMPORARY STUB of the per-session read model (issue #12; the real one is built in another
 * worktree and replaces this file on merge, same names and contracts). Everything that reads a
 * session for the session page and its routes goes through these two functions, so the merge
 * swaps the implementation without touching the callers.
 *
 * - `readSession` returns the session's meta (fresh from the database on every call), its tree
 *   (every committed entry, positioned on meta.leafId; READ-ONLY for callers) and `rev`, the
 *   session's data version (here: meta.entryCount). The stub loads the whole tree every time.
 * - `memoPerEntry` memoises a per-entry function in a WeakMap keyed by the entry object, so
 *   while the read model keeps the same entry objects each is computed once. With this stub the
 *   tree is rebuilt per call, so the memo only lives for one request.
 */
import type { SessionMeta } from "@/lib/db/session-rows";
import { loadTree } from "@/lib/db/store-read";
import type { SessionTree } from "@/lib/session/tree";
import type { SessionEntry } from "@/lib/session/types";

export interface SessionView {
  meta: SessionMeta;
  tree: SessionTree;
  rev: number;
}

/** Throws NotFoundError (lib/db/errors) for a session that does not exist. */
export async function readSession(input: { sessionId: string }): Promise<SessionView> {
  const { meta, tree } = await loadTree({ sessionId: input.sessionId });
  return { meta, tree, rev: meta.entryCount };
}

export function memoPerEntry<T>(fn: (entry: SessionEntry) => T): (entry: SessionEntry) => T {
  const memo = new WeakMap<SessionEntry, T>();
  return (entry) => {
    if (memo.has(entry)) return memo.get(entry) as T;
    const value = fn(entry);
    memo.set(entry, value);
    return value;
  };
}
