/**
 * Landmarks of the canvas map (ui.md "visual language"): compaction boundaries (with the
 * tokens before), "first kept", branch points, branch summaries, labels and the current leaf.
 * Pure: no React, no DOM.
 *
 * - `selectLandmarks` picks them from the displayed graph (entries or turns), in display order.
 *   Compactions and branch summaries carry a `when` part — when they were written, the
 *   summary's size and (in the overview) which turns a compaction covered — so siblings (a
 *   compaction made again) read apart.
 * jump-targets.ts builds the "Jump to" menu from them and the rows; caption-placement.ts lays
 * the captions out in screen space.
 */
import { dayTime, formatTokens } from "@/components/tree/format";
import type { TreeEdge, TreeNode } from "@/components/tree/types";
import { runSteps, type Steps, tick } from "@/lib/session/stepwise";

export type LandmarkKind =
  | "leaf"
  | "compaction"
  | "firstKept"
  | "branchPoint"
  | "branchSummary"
  | "label"
  | "start"
  /** Details that tell sibling landmarks apart: time, size, what a compaction covered. */
  | "when"
  /** The map's turn captions (map-captions.ts): a pause before the turn, its errors, its prompt. */
  | "gap"
  | "error"
  | "prompt";

/**
 * Lower = more important (placed first when captions collide). The current leaf, then where
 * the model's memory begins now (the latest compaction on the active path and its first kept
 * entry), then branch points; older compactions and the rest after them.
 */
const PRIORITY: Record<LandmarkKind, number> = {
  leaf: 0,
  compaction: 3,
  // An older compaction's "first kept" matters less than where things went wrong (the current one
  // ranks with the current memory, CURRENT_MEMORY).
  firstKept: 6.5,
  branchPoint: 2,
  branchSummary: 4,
  label: 5,
  start: 4,
  when: 9,
  error: 6,
  gap: 6,
  prompt: 7,
};
const CURRENT_MEMORY = 1;

/** A part's own priority (lower = more important): which parts a crowded caption keeps. */
export function partPriority(kind: LandmarkKind): number {
  return PRIORITY[kind];
}

export interface LandmarkPart {
  kind: LandmarkKind;
  text: string;
}

export interface Landmark {
  /** The node showing it (entry, turn, fold, compaction, branch summary). */
  nodeId: string;
  entryId: string;
  parts: LandmarkPart[];
  /** Best (lowest) priority of its parts. */
  priority: number;
}

export function branchPointText(branches: number): string {
  return `branch point: ${branches} branches`;
}

/**
 * Landmarks of a displayed graph, in node (display) order. The first root is "session start"
 * (where the model's memory begins when nothing was compacted), unless the session start is
 * drawn as a node of its own above several roots (start-decor.ts) or is not in the graph (the
 * tail of a large session's path while its tree streams in): `startDrawn` then.
 */
export function selectLandmarks(nodes: readonly TreeNode[], edges: readonly TreeEdge[], startDrawn = false): Landmark[] {
  return runSteps(selectLandmarksSteps(nodes, edges, startDrawn));
}

/** selectLandmarks as steps (lib/session/stepwise.ts). */
export function* selectLandmarksSteps(nodes: readonly TreeNode[], edges: readonly TreeEdge[], startDrawn = false): Steps<Landmark[]> {
  const children = new Map<string, number>();
  const keptOf = new Map<string, string>();
  const hasParent = new Set<string>();
  for (let k = 0; k < edges.length; k++) {
    if (tick(k)) yield;
    const e = edges[k]!;
    if (e.data?.kind === "firstKept") keptOf.set(e.source, e.target);
    else {
      children.set(e.source, (children.get(e.source) ?? 0) + 1);
      hasParent.add(e.target);
    }
  }
  // The latest compaction on the active path and the node of its first kept entry.
  let current: string | undefined;
  for (const n of nodes) if (n.type === "compaction" && n.data.isActive) current = n.id;
  const currentKept = current === undefined ? undefined : keptOf.get(current);
  const root = startDrawn ? undefined : nodes.find((n) => !hasParent.has(n.id));
  // Which turns each compaction covered (overview): the least and greatest turn numbers it summarised.
  const covered = new Map<string, [number, number]>();
  for (const n of nodes) {
    if (n.type !== "turn") continue;
    for (const c of n.data.summarisedBy) {
      const span = covered.get(c);
      covered.set(c, span ? [Math.min(span[0], n.data.ordinal), Math.max(span[1], n.data.ordinal)] : [n.data.ordinal, n.data.ordinal]);
    }
  }
  const out: Landmark[] = [];
  for (let i = 0; i < nodes.length; i++) {
    if (tick(i)) yield;
    const node = nodes[i]!;
    const d = node.data;
    const parts: LandmarkPart[] = [];
    if (node === root) parts.push({ kind: "start", text: "session start" });
    if (d.isLeaf) parts.push({ kind: "leaf", text: "you are here" });
    if (node.type === "compaction") {
      parts.push({ kind: "compaction", text: node.data.text });
      const span = covered.get(node.id);
      parts.push({ kind: "when", text: whenText(d.time, d.tokens, span && (span[0] === span[1] ? `turn ${span[0]}` : `turns ${span[0]}–${span[1]}`)) });
    }
    if (d.isFirstKept) parts.push({ kind: "firstKept", text: "first kept" });
    const branches = children.get(node.id) ?? 0;
    if (branches > 1) parts.push({ kind: "branchPoint", text: branchPointText(branches) });
    if (node.type === "branchSummary") {
      parts.push({ kind: "branchSummary", text: "branch summary" });
      parts.push({ kind: "when", text: whenText(d.time, d.tokens) });
    }
    const labels = node.type === "turn" ? node.data.labels : d.label ? [d.label] : [];
    for (const l of labels) parts.push({ kind: "label", text: `label: ${l}` });
    if (parts.length === 0) continue;
    let priority = Math.min(...parts.map((p) => PRIORITY[p.kind]));
    if (node.id === current || node.id === currentKept) priority = Math.min(priority, CURRENT_MEMORY);
    out.push({ nodeId: node.id, entryId: d.entryId, parts, priority });
  }
  return out;
}

/** "Jan 15 14:32 · 2.1k tokens summary · covers turns 3–40" (what is known of it). */
function whenText(time: number, summaryTokens: number, covers?: string): string {
  const parts: string[] = [];
  if (!Number.isNaN(time)) parts.push(dayTime(time));
  if (summaryTokens > 0) parts.push(`${formatTokens(summaryTokens)} summary`);
  if (covers) parts.push(`covers ${covers}`);
  return parts.join(" · ");
}
