/**
 * Undo and redo of a compaction as leaf moves (docs/engine.md "Arbor extensions around compaction"). An Arbor extension: nothing is
 * deleted or rewritten; the compaction stays in the tree as a branch.
 * Pure: no network, disk or database access.
 *
 * Contract:
 * - Undo moves the leaf to the compaction's parent (`null` = before the first entry), so the next
 *   context is the one the compaction replaced (session-engine.md §2: no compaction on the new path). It is
 *   offered only while the current leaf is the compaction or below it; the redo target is that
 *   leaf, so Redo returns exactly where the user was (the compaction itself when it was the leaf).
 * - Threshold and overflow compactions are entries like any other and undo the same way.
 */
import type { SessionEntry } from "@/lib/session/types";

export type CompactionUndo =
  | { ok: true; compactionId: string; undoLeafId: string | null; redoLeafId: string }
  | { ok: false; reason: string };

/**
 * `pathToLeaf` is the root-first path to the current leaf (SessionTree.getBranch()); `entry` the
 * compaction to undo.
 */
export function planCompactionUndo(entry: SessionEntry | undefined, pathToLeaf: readonly SessionEntry[]): CompactionUndo {
  if (!entry) return { ok: false, reason: "Entry not found" };
  if (entry.type !== "compaction") return { ok: false, reason: `Entry ${entry.id} is not a compaction` };
  const leaf = pathToLeaf.at(-1);
  if (!leaf || !pathToLeaf.some((e) => e.id === entry.id)) {
    return { ok: false, reason: "The current leaf is not on this compaction's branch" };
  }
  return { ok: true, compactionId: entry.id, undoLeafId: entry.parentId, redoLeafId: leaf.id };
}

/** Applies a leaf move to anything with SessionTree's `branch` / `resetLeaf`. */
export function moveLeaf(tree: { branch(id: string): void; resetLeaf(): void }, leafId: string | null): void {
  if (leafId === null) tree.resetLeaf();
  else tree.branch(leafId);
}
