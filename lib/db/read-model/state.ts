import "server-only";
/**
 * One session's cached state: its committed entries as a SessionTree, the rev they are exactly
 * the database's entries at, their count, and an estimate of their heap cost (for the LRU).
 *
 * States are replaced, never edited, except that `grow` adds the new entries to the shared tree
 * (appends never change what an older view's leaf path holds). Entries are deep-frozen under
 * NODE_ENV=test so any in-place mutation of cached data fails loudly in the test suite.
 *
 * Size estimate: JSON text length × CHAR_COST + PER_ENTRY (objects, index maps, arrays);
 * calibrated against the live heap of a 100k-entry session (bench/read-model-memory.ts).
 */
import { env } from "@/lib/env";
import { SessionTree } from "@/lib/session/tree/tree";
import type { SessionEntry, SessionHeader } from "@/lib/session/types";

export interface CachedSession {
  readonly tree: SessionTree;
  readonly rev: number;
  readonly count: number;
  /** The LRU's size of this state: the entries' estimate plus `memoBytes`. */
  readonly bytes: number;
  /** What whole-session data derived from this tree's entries (memoPerEntries) was charged. */
  readonly memoBytes: number;
  /**
   * What the request texts kept with this tree's messages were charged (chargePromptMemory).
   * Part of `bytes`; kept by `grow` and `rewrite` (the messages a rewrite leaves alone keep
   * their texts), dropped with the tree by a reload.
   */
  readonly promptBytes: number;
}

export const CHAR_COST = 1;
export const PER_ENTRY = 160;

const FREEZE = env.NODE_ENV === "test";

function deepFreeze(value: unknown): void {
  if (typeof value !== "object" || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const v of Object.values(value)) deepFreeze(v);
}

function admit(entries: readonly SessionEntry[]): void {
  if (FREEZE) for (const e of entries) deepFreeze(e);
}

function estimate(chars: number, entries: number): number {
  return Math.ceil(chars * CHAR_COST) + entries * PER_ENTRY;
}

export function newState(header: SessionHeader, entries: SessionEntry[], at: { rev: number; chars: number }): CachedSession {
  admit(entries);
  return { tree: new SessionTree(header, entries), rev: at.rev, count: entries.length, bytes: estimate(at.chars, entries.length), memoBytes: 0, promptBytes: 0 };
}

/** `state` plus entries committed after it (in seq order), now at `at.rev`. */
export function grow(state: CachedSession, entries: readonly SessionEntry[], at: { rev: number; chars: number }): CachedSession {
  admit(entries);
  if (entries.length > 0) state.tree.addCommitted(entries);
  return {
    tree: state.tree,
    rev: at.rev,
    count: state.count + entries.length,
    bytes: state.bytes + estimate(at.chars, entries.length),
    memoBytes: state.memoBytes,
    promptBytes: state.promptBytes,
  };
}

/**
 * A new state (own tree and index) with `entries` replacing the entries of the same ids. Its
 * tree starts with no derived data, so the old tree's memo charges are not carried over.
 */
export function rewrite(state: CachedSession, entries: readonly SessionEntry[], rev: number): CachedSession {
  admit(entries);
  const tree = state.tree.fork({ flat: true });
  let delta = 0;
  for (const e of entries) {
    const old = tree.getEntry(e.id);
    delta += JSON.stringify(e).length - (old ? JSON.stringify(old).length : 0);
  }
  tree.replaceEntries(entries);
  const bytes = Math.max(0, state.bytes - state.memoBytes + Math.ceil(delta * CHAR_COST));
  return { tree, rev, count: state.count, bytes, memoBytes: 0, promptBytes: state.promptBytes };
}

/** `state` with `bytes` more of request texts kept with its messages charged to it. */
export function promptCharged(state: CachedSession, bytes: number): CachedSession {
  return { ...state, bytes: state.bytes + bytes, promptBytes: state.promptBytes + bytes };
}

/** `state` with `delta` more bytes of derived data charged to it. */
export function charged(state: CachedSession, delta: number): CachedSession {
  return { ...state, bytes: Math.max(0, state.bytes + delta), memoBytes: Math.max(0, state.memoBytes + delta) };
}

/** Copies of committed entries as the database holds them (its JSON form), and their text size. */
export function copyCommitted(entries: readonly SessionEntry[], toJson: (v: unknown) => string): { entries: SessionEntry[]; chars: number } {
  let chars = 0;
  const out: SessionEntry[] = [];
  for (const e of entries) {
    const json = toJson(e);
    chars += json.length;
    out.push(JSON.parse(json) as SessionEntry);
  }
  return { entries: out, chars };
}
