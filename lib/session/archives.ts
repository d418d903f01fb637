/**
 * Archived branches (an Arbor extension, docs/session-engine.md §19.4; ui.md "Archive a branch").
 * Pure: no network, disk or database access.
 *
 * Contract:
 * - Archiving hides an abandoned branch from the map, the list view and the tree's search; the
 *   session stays append-only: an archive is a pi `custom` entry (extension state, never in
 *   context), appended under the leaf like a pin (§19.1):
 *   `{ type: "custom", customType: "arbor.archive", data: { targetId, archived } }` — `targetId`
 *   is the first entry of the branch (its whole subtree is archived), `archived: false` restores
 *   it. Nothing is deleted; pi and every reader that does not know archives keep the entry
 *   verbatim, so JSONL import and export round-trip it.
 * - The archive state is the last archive entry per target in file order over the whole session.
 * - A branch holding the current leaf is never hidden (its archive is ignored while the leaf is
 *   in it), so "you are here" and the current path always show.
 */
export const ARCHIVE_CUSTOM_TYPE = "arbor.archive";

export interface ArchiveData {
  targetId: string;
  archived: boolean;
}

/** The archive change an entry makes, or undefined when it is not a (well-formed) archive entry. */
export function archiveOf(entry: { type: string; customType?: unknown; data?: unknown }): ArchiveData | undefined {
  if (entry.type !== "custom" || entry.customType !== ARCHIVE_CUSTOM_TYPE) return undefined;
  const data = entry.data as { targetId?: unknown; archived?: unknown } | undefined;
  if (!data || typeof data.targetId !== "string" || typeof data.archived !== "boolean") return undefined;
  return { targetId: data.targetId, archived: data.archived };
}

/** The fields of a new archive entry (the store adds id, parentId and timestamp). */
export function archiveEntryFields(targetId: string, archived: boolean) {
  return { type: "custom" as const, customType: ARCHIVE_CUSTOM_TYPE, data: { targetId, archived } };
}

/** Ids archived now (branch roots): the last archive entry per target in file order wins. */
export function archivedIds(changes: Iterable<ArchiveData | undefined>): Set<string> {
  const archived = new Set<string>();
  for (const change of changes) {
    if (!change) continue;
    if (change.archived) archived.add(change.targetId);
    else archived.delete(change.targetId);
  }
  return archived;
}

/**
 * The entries inside archived branches, given every entry's parent (`parentOf`) and the archived
 * roots: an entry is hidden when it or an ancestor is an archived root, unless that root's branch
 * holds `leafId`. Iterative, memoised: linear in the entries.
 */
export function hiddenByArchive(
  ids: readonly string[],
  parentOf: (id: string) => string | null,
  archived: ReadonlySet<string>,
  leafId: string | null | undefined,
): Set<string> {
  if (archived.size === 0) return new Set();
  // Roots on the leaf's path are ignored: the current branch always shows.
  const active = new Set(archived);
  const seen = new Set<string>();
  for (let id = leafId ?? null; id !== null && !seen.has(id); id = parentOf(id)) {
    seen.add(id);
    active.delete(id);
  }
  const state = new Map<string, boolean>();
  const hidden = new Set<string>();
  for (const start of ids) {
    const chain: string[] = [];
    let id: string | null = start;
    let answer = false;
    while (id !== null) {
      const known = state.get(id);
      if (known !== undefined) {
        answer = known;
        break;
      }
      if (active.has(id)) {
        answer = true;
        chain.push(id);
        break;
      }
      chain.push(id);
      state.set(id, false); // a guard against parent cycles; corrected below
      id = parentOf(id);
    }
    for (const c of chain) {
      state.set(c, answer);
      if (answer) hidden.add(c);
    }
  }
  return hidden;
}
