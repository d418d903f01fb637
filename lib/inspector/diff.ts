/**
 * diffCalls: what changed in the messages sent between two turns.
 * Pure: no network, disk or database access. About linear in the two list lengths (duplicates
 * of one message are scanned in a short queue).
 *
 * Matching, for each message of `next` in order:
 * 1. its source entry is known and some unmatched `prev` message has the same source entry:
 *    same hash → unchanged, different hash → changed (e.g. a pruned tool result, session-engine.md §8);
 * 2. otherwise an unmatched `prev` message with the same hash (and no conflicting known source)
 *    → unchanged (messages without a known source, e.g. a recorded call whose entries were
 *    not found);
 * 3. otherwise → added.
 * Every `prev` message left unmatched → removed (compacted away, or dropped from the working
 * context, e.g. an error message before a retry, session-engine.md §13.5).
 * `counts` holds each list's length; `boundDiff` cuts the lists for the browser and keeps them.
 */
import type { CallDiff, DiffItem, MessageRef } from "@/lib/types/inspector";

function item(ref: MessageRef, index: number): DiffItem {
  return { index, role: ref.role, hash: ref.hash, sourceEntryId: ref.sourceEntryId, tokens: ref.tokens };
}

/** Queues of unmatched `prev` indices, keyed by a field. */
function queues(prev: readonly MessageRef[], key: (ref: MessageRef) => string | null): Map<string, number[]> {
  const map = new Map<string, number[]>();
  prev.forEach((ref, i) => {
    const k = key(ref);
    if (k === null) return;
    const list = map.get(k);
    if (list) list.push(i);
    else map.set(k, [i]);
  });
  return map;
}

function take(
  map: Map<string, number[]>,
  key: string | null,
  matched: boolean[],
  accept: (i: number) => boolean = () => true,
): number | undefined {
  if (key === null) return undefined;
  const list = map.get(key);
  if (!list) return undefined;
  for (let n = 0; n < list.length; n++) {
    const i = list[n]!;
    if (matched[i] || !accept(i)) continue;
    list.splice(n, 1);
    return i;
  }
  return undefined;
}

export function diffCalls(prev: readonly MessageRef[], next: readonly MessageRef[]): CallDiff {
  const matched = prev.map(() => false);
  const bySource = queues(prev, (r) => r.sourceEntryId);
  const byHash = queues(prev, (r) => r.hash);
  const diff: CallDiff = { counts: { added: 0, removed: 0, changed: 0 }, added: [], removed: [], changed: [], unchanged: 0 };

  next.forEach((ref, i) => {
    const sameSource = take(bySource, ref.sourceEntryId, matched);
    if (sameSource !== undefined) {
      matched[sameSource] = true;
      const before = prev[sameSource]!;
      if (before.hash === ref.hash) diff.unchanged++;
      else diff.changed.push({ before: item(before, sameSource), after: item(ref, i) });
      return;
    }
    // Equal content from two different known entries is not the same message.
    const sameHash = take(byHash, ref.hash, matched, (j) => {
      const other = prev[j]!.sourceEntryId;
      return other === null || ref.sourceEntryId === null || other === ref.sourceEntryId;
    });
    if (sameHash !== undefined) {
      matched[sameHash] = true;
      diff.unchanged++;
      return;
    }
    diff.added.push(item(ref, i));
  });

  prev.forEach((ref, i) => {
    if (!matched[i]) diff.removed.push(item(ref, i));
  });
  diff.counts = { added: diff.added.length, removed: diff.removed.length, changed: diff.changed.length };
  return diff;
}

/** Items of each list a turn view carries at most (the inspector draws no more: diff-view.tsx). */
export const DIFF_LIST_MAX = 200;

/** `diff` with each list cut to its first `max` items; `counts` keep the full numbers. */
export function boundDiff(diff: CallDiff, max = DIFF_LIST_MAX): CallDiff {
  return { ...diff, added: diff.added.slice(0, max), removed: diff.removed.slice(0, max), changed: diff.changed.slice(0, max) };
}
