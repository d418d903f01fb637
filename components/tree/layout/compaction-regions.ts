/**
 * What each compaction replaced, for the amber "summarised" bands of the canvas (ui.md).
 * Pure: no React, no DOM.
 *
 * Contract: the summarised region of a compaction C is the run of entries on C's own path
 * that starts just after the previous compaction on that path (or at the root) and stops
 * before C's `firstKeptEntryId` — the range `prepareCompaction` summarises (session-engine.md §5.4 steps
 * 2 and 9). When `firstKeptEntryId` is not on the path before C, nothing before C was kept
 * (session-engine.md §2 step 7.2), so the region runs up to C itself. C itself is never in its region.
 *
 * One pre-order pass keeps the current root → row path on a stack, so finding each region
 * costs its own length: O(rows + Σ region sizes). Regions of compactions on different
 * branches may share entries; those entries list every such compaction.
 */
import { runSteps, type Steps, tick } from "@/lib/session/stepwise";
import type { TreeRow } from "@/lib/session/tree/tree-flatten";

export interface CompactionRegions {
  /** Per row index: ids of the compactions whose region holds the row (undefined: none). */
  summarisedBy: (string[] | undefined)[];
  /** Compaction row index → row index of the entry its `firstKeptEntryId` names. */
  firstKept: Map<number, number>;
}

type RegionRow = TreeRow<{ id: string; type: string }>;

export function compactionRegions(rows: readonly RegionRow[], rowOfId: ReadonlyMap<string, number>): CompactionRegions {
  return runSteps(compactionRegionsSteps(rows, rowOfId));
}

/** compactionRegions as steps (lib/session/stepwise.ts). */
export function* compactionRegionsSteps(rows: readonly RegionRow[], rowOfId: ReadonlyMap<string, number>): Steps<CompactionRegions> {
  const summarisedBy: (string[] | undefined)[] = new Array(rows.length);
  const firstKept = new Map<number, number>();
  const depth = new Int32Array(rows.length);
  /** Row indices of the current root → row path. */
  const path: number[] = [];
  /** Entry id → position in `path`, for the ids currently on it. */
  const pathPos = new Map<string, number>();
  /** Positions in `path` of the compactions on it, ascending. */
  const compactions: number[] = [];

  for (let i = 0; i < rows.length; i++) {
    if (tick(i)) yield;
    const row = rows[i]!;
    const d = row.parentIndex < 0 ? 0 : depth[row.parentIndex]! + 1;
    depth[i] = d;
    while (path.length > d) pathPos.delete(rows[path.pop()!]!.entry.id);
    while (compactions.length > 0 && compactions.at(-1)! >= d) compactions.pop();
    path.push(i);
    pathPos.set(row.entry.id, d);

    const entry = row.entry;
    if (entry.type !== "compaction") continue;
    const kept: unknown = (entry as { firstKeptEntryId?: unknown }).firstKeptEntryId;
    const keptId = typeof kept === "string" && kept !== "" ? kept : undefined;
    const keptRow = keptId === undefined ? undefined : rowOfId.get(keptId);
    if (keptRow !== undefined) firstKept.set(i, keptRow);

    const start = (compactions.at(-1) ?? -1) + 1;
    const keptPos = keptId === undefined ? undefined : pathPos.get(keptId);
    const end = keptPos !== undefined && keptPos < d ? keptPos : d;
    for (let p = start; p < end; p++) {
      const r = path[p]!;
      const list = summarisedBy[r];
      if (list) list.push(entry.id);
      else summarisedBy[r] = [entry.id];
    }
    compactions.push(d);
  }
  return { summarisedBy, firstKept };
}
