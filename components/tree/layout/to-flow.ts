/**
 * Skeleton rows → React Flow graph of the tree canvas (session-engine.md §16, ui.md "visual language").
 * Pure: no React, no DOM. Linear in the number of entries (plus sibling sorting and the
 * compaction regions, see compaction-regions.ts); every walk is iterative, and the long ones
 * yield at checkpoints (`skeletonToFlowSteps`, lib/session/stepwise.ts).
 *
 * The canvas's one data input is the session's skeleton (lib/session-view/tree-skeleton: no entry
 * contents) plus the leaf, labels, filter, the search's matching ids and the unfolded runs:
 * `skeletonToFlow`. `toFlow` is the same over full entries (tests, tools): it derives the
 * skeleton and runs the search locally.
 *
 * Contract:
 * - Rows come from the engine (`flattenSkeleton`): §16.1 order, §16.2 row text, §16.3
 *   visibility (hidden assistants, filter, search). Only visible rows become nodes.
 * - Nodes are emitted in display pre-order (the current leaf's subtree first), which is the
 *   sibling order `layoutTree` relies on. Node id = entry id; folded runs get `fold:<id>`.
 * - Tree edges join each visible node to its nearest visible ancestor (§16.3 "Graph
 *   edges"), flagged `isActive` when the child lies on the root → leaf path. Edges inside a
 *   folded run disappear; edges into or out of it attach to the fold node.
 * - One dashed `firstKept` edge per visible compaction, to the node of its
 *   `firstKeptEntryId`; when that entry is hidden, to its first visible descendant in
 *   display order (none: no edge). That node carries `isFirstKept`.
 * - Branch summaries are ordinary children of the entry they hang under (their parent).
 * - Archived branches (archive-view.ts) are left out before anything else, unless `showArchived`:
 *   then their nodes carry `archived`.
 * - "You are here" (`isLeaf`) marks the current leaf's row, or when the filter or search hides
 *   it, its nearest visible ancestor (`hereId`), so every view of a session says where it is;
 *   `hiddenLeaf` then names the hidden leaf. That row never folds away.
 */
import { archiveView, type ArchiveView } from "@/components/tree/model/archive-view";
import { compactionRegionsSteps } from "@/components/tree/layout/compaction-regions";
import { labelsFromEntries, nodeBase, roleMark } from "@/components/tree/model/entry-info";
import { findFoldRuns } from "@/components/tree/model/fold";
import { type CommonData, foldId, type TreeEdge, type TreeNode } from "@/components/tree/types";
import { matchingIds } from "@/lib/session/search-text";
import { runSteps, type Steps, tick } from "@/lib/session/stepwise";
import type { TreeFilter } from "@/lib/session/tree/tree-filter";
import { nearestVisibleAncestors } from "@/lib/session/tree/tree-graph";
import { displayText } from "@/lib/session/tree/tree-row-text";
import { FLAG, type SkeletonEntry } from "@/lib/session-view/tree-skeleton";
import { resolveSkeleton, skeletonPins } from "@/lib/session-view/skeleton-resolve";
import { flattenSkeletonSteps, type SkeletonRow } from "@/lib/session-view/tree-skeleton-view";
import type { SessionEntry } from "@/lib/session/types";

export interface ToFlowOptions {
  /** The current leaf; null/undefined: no active path. */
  leafId: string | null | undefined;
  filter?: TreeFilter;
  search?: string;
  /** Entry ids the user unfolded: a run holding any of them stays unfolded. */
  expanded?: ReadonlySet<string>;
  /** Resolved labels (targetId → label, `SessionTree.getLabels()`); derived from label entries when omitted. */
  labels?: ReadonlyMap<string, string>;
  /** The selected entry: its run stays unfolded. */
  selectedId?: string | null;
}

export interface SkeletonFlowOptions extends Omit<ToFlowOptions, "search" | "labels"> {
  /** Resolved labels (skeletonLabels). */
  labels: ReadonlyMap<string, string>;
  /** Ids matching the active search; null/undefined: no search (§16.3). */
  matches?: ReadonlySet<string> | null;
  /** Draw archived branches (marked "archived") instead of leaving them out (archive-view.ts). */
  showArchived?: boolean;
}

export interface FlowGraph {
  nodes: TreeNode[];
  edges: TreeEdge[];
  /** All navigator rows (§16.1, with `visible`), for the list view and selection rules. */
  rows: SkeletonRow[];
  /** Entry id → row index. */
  rowOf: Map<string, number>;
  /**
   * The entry that shows "you are here": the current leaf when it is visible, else the nearest
   * visible entry of its path (a filter or search hides model and thinking changes, labels, pins,
   * Claude Code's trailing summary…); null when no entry of the path is visible.
   */
  hereId: string | null;
  /** Visible entry id → id of the node showing it (itself, or the fold holding it). */
  nodeOf: Map<string, string>;
  /** The archived branches (archive-view.ts): left out unless `showArchived`, then marked. */
  archive: ArchiveView;
}

const FOLD_SUFFIX = "tool steps";

/** toFlow over full entries: their skeleton, with the §16.3 search run here. */
export function toFlow(entries: readonly SessionEntry[], opts: ToFlowOptions): FlowGraph {
  const labels = opts.labels ?? labelsFromEntries(entries);
  const ids = matchingIds({ entries, labels, query: opts.search ?? "" });
  const { search: _search, labels: _labels, ...rest } = opts;
  return skeletonToFlow(resolveSkeleton(entries), { ...rest, labels, matches: ids ? new Set(ids) : null });
}

export function skeletonToFlow(skeleton: readonly SkeletonEntry[], opts: SkeletonFlowOptions): FlowGraph {
  return runSteps(skeletonToFlowSteps(skeleton, opts));
}

/** skeletonToFlow as steps (lib/session/stepwise.ts): a 100k-entry session builds in slices. */
export function* skeletonToFlowSteps(skeleton: readonly SkeletonEntry[], opts: SkeletonFlowOptions): Steps<FlowGraph> {
  // Archived branches (session-engine.md §19.4) are left out of the map, the list and the search.
  const archive = archiveView(skeleton, opts.leafId);
  const source = archive.hidden.size > 0 && !opts.showArchived ? skeleton.filter((s) => !archive.hidden.has(s.id)) : skeleton;
  const rows = yield* flattenSkeletonSteps(source, {
    leafId: opts.leafId,
    filter: opts.filter ?? "default",
    labels: opts.labels,
    matches: opts.matches,
  });
  const searching = opts.matches != null;
  const pins = skeletonPins(skeleton); // session-engine.md §19: a pin mark on the node, never folded away

  const rowOf = new Map<string, number>();
  for (let i = 0; i < rows.length; i++) {
    if (tick(i)) yield;
    rowOf.set(rows[i]!.entry.id, i);
  }
  const regions = yield* compactionRegionsSteps(rows, rowOf);

  // The visible graph, in display order: vis[k] is a row index, vparent[k] an index into vis.
  const ancestors = nearestVisibleAncestors(rows);
  const vis: number[] = [];
  const visOfRow = new Int32Array(rows.length).fill(-1);
  for (let i = 0; i < rows.length; i++) {
    if (!rows[i]!.visible) continue;
    visOfRow[i] = vis.length;
    vis.push(i);
  }
  const vparent = new Int32Array(vis.length);
  for (let k = 0; k < vis.length; k++) {
    const a = ancestors[vis[k]!]!;
    vparent[k] = a < 0 ? -1 : visOfRow[a]!;
  }

  // A hidden first-kept entry is shown through its first visible descendant (display order).
  const firstVisibleBelow = new Int32Array(rows.length).fill(-1);
  for (const k of vis) {
    let p = rows[k]!.parentIndex;
    while (p >= 0 && !rows[p]!.visible && firstVisibleBelow[p]! < 0) {
      firstVisibleBelow[p] = k;
      p = rows[p]!.parentIndex;
    }
  }
  // "You are here": the leaf's row, or its nearest visible ancestor when hidden.
  const leafRow = opts.leafId == null ? -1 : (rowOf.get(opts.leafId) ?? -1);
  const hereRow = leafRow < 0 || rows[leafRow]!.visible ? leafRow : ancestors[leafRow]!;
  const hiddenLeaf = hereRow >= 0 && hereRow !== leafRow ? rows[leafRow]!.text : undefined;

  const keptTarget = new Map<number, number>(); // compaction row → visible kept row
  const isFirstKept = new Uint8Array(rows.length);
  for (const [c, kept] of regions.firstKept) {
    const target = rows[kept]!.visible ? kept : firstVisibleBelow[kept]!;
    if (target < 0) continue;
    keptTarget.set(c, target);
    isFirstKept[target] = 1;
  }

  const expanded = opts.expanded;
  const folds = findFoldRuns({
    size: vis.length,
    parent: vparent,
    isToolStep: (k) => (rows[vis[k]!]!.entry.flags & FLAG.toolStep) !== 0,
    isPinned: (k) => {
      const row = rows[vis[k]!]!;
      return vis[k] === hereRow || searching || row.label !== undefined || pins.has(row.entry.id) || (opts.selectedId != null && row.entry.id === opts.selectedId);
    },
    isExpanded: (k) => expanded?.has(rows[vis[k]!]!.entry.id) ?? false,
  });

  const common = (i: number): CommonData => {
    const row = rows[i]!;
    return {
      entryId: row.entry.id,
      text: row.text,
      ...(row.entry.firstLine !== undefined ? { firstLine: row.entry.firstLine } : {}),
      ...(row.label !== undefined ? { label: row.label } : {}),
      tokens: row.entry.tokens,
      time: row.entry.t,
      isActive: row.isActive,
      isLeaf: i === hereRow,
      ...(i === hereRow && hiddenLeaf !== undefined ? { hiddenLeaf } : {}),
      isFirstKept: isFirstKept[i] === 1,
      summarisedBy: regions.summarisedBy[i] ?? [],
      matchesSearch: searching,
      ...(pins.has(row.entry.id) ? { pinned: true } : {}),
      ...(archive.hidden.has(row.entry.id) ? { archived: true } : {}),
    };
  };

  const nodes: TreeNode[] = [];
  const nodeOf = new Map<string, string>();
  const nodeIdOfVis: string[] = new Array(vis.length);
  for (let k = 0; k < vis.length; k++) {
    if (tick(k)) yield;
    const i = vis[k]!;
    const row = rows[i]!;
    const entry = row.entry;
    const run = folds.runOf[k]!;
    if (run >= 0) {
      const members = folds.runs[run]!.members;
      const first = members[0]!;
      const id = foldId(rows[vis[first]!]!.entry.id);
      nodeIdOfVis[k] = id;
      nodeOf.set(entry.id, id);
      if (first !== k) continue;
      const memberRows = members.map((m) => vis[m]!);
      const summarisedBy = [...new Set(memberRows.flatMap((r) => regions.summarisedBy[r] ?? []))];
      const text = `${members.length} ${FOLD_SUFFIX}`;
      nodes.push({
        ...nodeBase(id, "fold", text),
        type: "fold",
        data: {
          ...common(i),
          text,
          tokens: memberRows.reduce((sum, r) => sum + rows[r]!.entry.tokens, 0),
          isActive: rows[memberRows.at(-1)!]!.isActive,
          isFirstKept: memberRows.some((r) => isFirstKept[r] === 1),
          summarisedBy,
          entryIds: memberRows.map((r) => rows[r]!.entry.id),
          count: members.length,
        },
      });
      continue;
    }
    nodeIdOfVis[k] = entry.id;
    nodeOf.set(entry.id, entry.id);
    const aria = displayText(row.text, row.label);
    if (entry.type === "compaction") {
      nodes.push({
        ...nodeBase(entry.id, "compaction", aria),
        type: "compaction",
        data: {
          ...common(i),
          tokensBefore: entry.tokensBefore ?? 0,
          shortSummary: entry.preview ?? "",
          firstKeptEntryId: entry.firstKeptEntryId ?? "",
        },
      });
    } else if (entry.type === "branch_summary") {
      nodes.push({
        ...nodeBase(entry.id, "branchSummary", aria),
        type: "branchSummary",
        data: { ...common(i), preview: entry.preview ?? "" },
      });
    } else {
      const role = roleMark(entry);
      nodes.push({
        ...nodeBase(entry.id, "entry", aria),
        type: "entry",
        data: { ...common(i), entryType: entry.type, role, isUserMessage: role === "user" && entry.type === "message" },
      });
    }
  }

  const edges: TreeEdge[] = [];
  for (let k = 0; k < vis.length; k++) {
    if (tick(k)) yield;
    const p = vparent[k]!;
    if (p < 0) continue;
    const source = nodeIdOfVis[p]!;
    const target = nodeIdOfVis[k]!;
    if (source === target) continue; // inside a folded run
    edges.push({
      id: `${source}->${target}`,
      source,
      target,
      sourceHandle: "out",
      targetHandle: "in",
      data: { kind: "tree", isActive: rows[vis[k]!]!.isActive },
    });
  }
  for (const [c, kept] of keptTarget) {
    const cv = visOfRow[c]!;
    if (cv < 0) continue; // the compaction itself is hidden by the filter or search
    const source = nodeIdOfVis[cv]!;
    const target = nodeIdOfVis[visOfRow[kept]!]!;
    edges.push({
      id: `kept:${source}`,
      source,
      target,
      sourceHandle: "kept-out",
      targetHandle: "kept-in",
      data: { kind: "firstKept", isActive: rows[c]!.isActive && rows[kept]!.isActive },
    });
  }
  return { nodes, edges, rows, rowOf, nodeOf, hereId: hereRow >= 0 ? rows[hereRow]!.entry.id : null, archive };
}
