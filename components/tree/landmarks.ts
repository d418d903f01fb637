/**
 * Landmarks of the canvas map (ui.md "visual language"): compaction boundaries (with the
 * tokens before), "first kept", branch points, branch summaries, labels and the current leaf.
 * Pure: no React, no DOM.
 *
 * - `selectLandmarks` picks them from the displayed graph (entries or turns), in display order.
 * - `jumpTargets` is the "Jump to" list: compactions, branch points and labels.
 * - `placeLandmarks` lays their captions out in SCREEN space (fixed size at every zoom, so they
 *   stay readable at Fit view): one pill per landmark node beside the node, higher priorities
 *   first, a pill that would overlap a placed one is dropped; landmarks outside the viewport
 *   are listed as "above" / "below" (the nearest of each kind) for the edge indicators.
 */
import type { TreeEdge, TreeNode } from "@/components/tree/types";
import { runSteps, type Steps, tick } from "@/lib/session/stepwise";

export type LandmarkKind = "leaf" | "compaction" | "firstKept" | "branchPoint" | "branchSummary" | "label" | "start";

/**
 * Lower = more important (placed first when captions collide). The current leaf, then where
 * the model's memory begins now (the latest compaction on the active path and its first kept
 * entry), then branch points; older compactions and the rest after them.
 */
const PRIORITY: Record<LandmarkKind, number> = { leaf: 0, compaction: 3, firstKept: 3, branchPoint: 2, branchSummary: 4, label: 5, start: 4 };
const CURRENT_MEMORY = 1;

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
 * drawn as a node of its own above several roots (`startDrawn`, start-decor.ts).
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
  const out: Landmark[] = [];
  for (let i = 0; i < nodes.length; i++) {
    if (tick(i)) yield;
    const node = nodes[i]!;
    const d = node.data;
    const parts: LandmarkPart[] = [];
    if (node === root) parts.push({ kind: "start", text: "session start" });
    if (d.isLeaf) parts.push({ kind: "leaf", text: "you are here" });
    if (node.type === "compaction") parts.push({ kind: "compaction", text: node.data.text });
    if (d.isFirstKept) parts.push({ kind: "firstKept", text: "first kept" });
    const branches = children.get(node.id) ?? 0;
    if (branches > 1) parts.push({ kind: "branchPoint", text: branchPointText(branches) });
    if (node.type === "branchSummary") parts.push({ kind: "branchSummary", text: "branch summary" });
    const labels = node.type === "turn" ? node.data.labels : d.label ? [d.label] : [];
    for (const l of labels) parts.push({ kind: "label", text: `label: ${l}` });
    if (parts.length === 0) continue;
    let priority = Math.min(...parts.map((p) => PRIORITY[p.kind]));
    if (node.id === current || node.id === currentKept) priority = Math.min(priority, CURRENT_MEMORY);
    out.push({ nodeId: node.id, entryId: d.entryId, parts, priority });
  }
  return out;
}

export interface JumpTarget {
  kind: "compaction" | "branchPoint" | "label";
  text: string;
  nodeId: string;
  entryId: string;
}

/** The "Jump to" list: compactions (latest first), then branch points and labels in display order. */
export function jumpTargets(landmarks: readonly Landmark[]): JumpTarget[] {
  const of = (kind: JumpTarget["kind"]) =>
    landmarks.flatMap((l) => l.parts.filter((p) => p.kind === kind).map((p) => ({ kind, text: p.text, nodeId: l.nodeId, entryId: l.entryId })));
  return [...of("compaction").reverse(), ...of("branchPoint"), ...of("label")];
}

/** A node's rectangle on screen (pane pixels). */
export interface ScreenBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface PlacedCaption {
  landmark: Landmark;
  x: number;
  y: number;
  width: number;
}

export interface Placement {
  captions: PlacedCaption[];
  above: Landmark[];
  below: Landmark[];
}

/** Caption pill height and an estimate of its width (13 px text). */
export const CAPTION_HEIGHT = 22;
const CHAR_WIDTH = 7.4;
const PART_PAD = 14;
const GAP = 8;

/**
 * Where a caption may go, best first: zoomed in, just above the node; else beside it (right,
 * then left), vertically centred, then nudged one or two caption heights up or down (close
 * landmarks, like a compaction and its first-kept entry at Fit view, then both stay readable).
 */
function candidateSpots(box: ScreenBox, width: number, aboveNode: boolean): [number, number][] {
  const cy = Math.round(box.y + box.height / 2 - CAPTION_HEIGHT / 2);
  const right = Math.round(box.x + box.width + GAP);
  const left = Math.round(box.x - GAP - width);
  const out: [number, number][] = aboveNode ? [[Math.round(Math.max(0, box.x)), Math.round(box.y - CAPTION_HEIGHT - 2)]] : [];
  for (const dy of [0, -1, 1, -2, 2]) {
    const y = cy + dy * (CAPTION_HEIGHT + 2);
    out.push([right, y], [left, y]);
  }
  return out;
}

export function captionWidth(l: Landmark): number {
  return l.parts.reduce((w, p) => w + p.text.length * CHAR_WIDTH + PART_PAD, 0) + (l.parts.length - 1) * 4;
}

/**
 * Places captions for `landmarks` (boxOf: the node's screen box, or undefined when not laid
 * out) in a pane of `width` × `height`, at the first free spot of `candidateSpots` (`aboveNode`:
 * zoomed in, the gap between rows is taller than a caption), inside the pane and never
 * overlapping another caption; a landmark with no free spot gets no caption.
 */
export function placeLandmarks(
  landmarks: readonly Landmark[],
  boxOf: (l: Landmark) => ScreenBox | undefined,
  pane: { width: number; height: number },
  opts: { aboveNode?: boolean; maxCaptions?: number } = {},
): Placement {
  const maxCaptions = opts.maxCaptions ?? 80;
  const above: { l: Landmark; d: number }[] = [];
  const below: { l: Landmark; d: number }[] = [];
  const candidates: { l: Landmark; box: ScreenBox }[] = [];
  for (const l of landmarks) {
    const box = boxOf(l);
    if (!box) continue;
    const cy = box.y + box.height / 2;
    if (cy < 0) above.push({ l, d: -cy });
    else if (cy > pane.height) below.push({ l, d: cy - pane.height });
    else if (box.x + box.width >= 0 && box.x <= pane.width) candidates.push({ l, box });
  }
  candidates.sort((a, b) => a.l.priority - b.l.priority || a.box.y - b.box.y);
  const placed: PlacedCaption[] = [];
  for (const { l, box } of candidates) {
    if (placed.length >= maxCaptions) break;
    const width = captionWidth(l);
    const hits = (x: number, y: number) =>
      x < 0 || x + width > pane.width || y < 0 || y + CAPTION_HEIGHT > pane.height ||
      placed.some((p) => p.x < x + width && x < p.x + p.width && p.y < y + CAPTION_HEIGHT && y < p.y + CAPTION_HEIGHT);
    const spot = candidateSpots(box, width, opts.aboveNode === true).find(([x, y]) => !hits(x, y));
    if (!spot) continue;
    const [x, y] = spot;
    placed.push({ landmark: l, x, y, width });
  }
  // Per edge: the nearest landmark of each kind, the most important first.
  const nearest = (list: { l: Landmark; d: number }[]) => {
    const seen = new Set<string>();
    return list
      .sort((a, b) => a.d - b.d)
      .filter(({ l }) => {
        const kind = l.parts[0]!.kind;
        if (seen.has(kind)) return false;
        seen.add(kind);
        return true;
      })
      .sort((a, b) => a.l.priority - b.l.priority || a.d - b.d)
      .map((e) => e.l);
  };
  return { captions: placed, above: nearest(above), below: nearest(below) };
}
