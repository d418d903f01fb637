/**
 * createTreeCommitter: persists what happens to an in-memory SessionTree through an AgentStore.
 *
 * Contract:
 * - The caller loads the tree from the store, so at creation the store's leaf is the tree's
 *   leaf (override with `committedLeafId`).
 * - Every entry appended to the tree afterwards is recorded (via `tree.onAppend`) as pending.
 * - `commit()` sends the pending entries and the tree's current leaf in ONE store commit, with
 *   the last committed leaf as `expectedLeafId`, so a step (an assistant message, a tool
 *   result, a compaction, a navigation) lands atomically or not at all. A leaf move with no
 *   new entries is committed too (entries: []).
 * - Commits run one at a time, in call order. On failure (e.g. ConflictError) nothing is
 *   marked committed and the error propagates; the tree is then ahead of the store, and the
 *   caller must reload rather than keep appending.
 */
import type { AgentStore } from "@/lib/agent/ports";
import type { SessionTree } from "@/lib/session/tree/tree";
import type { SessionEntry } from "@/lib/session/types";

export interface TreeCommitter {
  /** The leaf the store last confirmed. */
  readonly committedLeafId: string | null;
  /** Entries appended since the last successful commit, in order. */
  pendingEntries(): readonly SessionEntry[];
  /** True when there are pending entries or the leaf moved since the last commit. */
  isDirty(): boolean;
  /** Commits everything pending; resolves with the entries it wrote ([] when clean). */
  commit(): Promise<SessionEntry[]>;
  /** Stops recording appends. */
  dispose(): void;
}

export function createTreeCommitter(
  tree: SessionTree,
  store: AgentStore,
  opts: { committedLeafId?: string | null } = {},
): TreeCommitter {
  let committedLeafId = opts.committedLeafId === undefined ? tree.getLeafId() : opts.committedLeafId;
  let pending: SessionEntry[] = [];
  let queue: Promise<unknown> = Promise.resolve();
  const stop = tree.onAppend((entry) => {
    pending.push(entry);
  });

  const isDirty = () => pending.length > 0 || tree.getLeafId() !== committedLeafId;

  const commitNow = async (): Promise<SessionEntry[]> => {
    if (!isDirty()) return [];
    const entries = pending;
    const newLeafId = tree.getLeafId();
    await store.commit({ expectedLeafId: committedLeafId, entries: [...entries], newLeafId });
    // Appends made while the store was writing stay pending for the next commit.
    pending = pending.slice(entries.length);
    committedLeafId = newLeafId;
    return entries;
  };

  return {
    get committedLeafId() {
      return committedLeafId;
    },
    pendingEntries: () => pending,
    isDirty,
    commit() {
      const run = queue.then(commitNow);
      queue = run.catch(() => undefined);
      return run;
    },
    dispose: () => {
      stop();
    },
  };
}
