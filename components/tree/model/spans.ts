/**
 * Aggregated bands of the overview (ui.md "A map of a real session"): past SPAN_ABOVE turns a
 * turn card per turn is too many to read at Fit view, so runs of consecutive turns on one branch
 * are drawn as one "span" card each ("turns 120–139": their prompts, tokens, errors, edits and
 * times summed), about SPAN_TARGET cards in all. Pure: no React, no DOM. Linear in the nodes.
 *
 * Contract:
 * - Input: the overview graph after collapseTurns (display pre-order, tree edges). A span is a
 *   maximal run of collapsed turns v1 → … → vk, each the only child of the one before, at most G
 *   long (G = ceil(turns / SPAN_TARGET)), all on the current path or all off it, with the same
 *   compactions summarising them. A turn that is the current leaf's, a "first kept", or labelled
 *   is never part of a span (it stays a landmark of its own); a run of one stays a turn.
 * - A span is `span:<first entry id>`; spans in `expanded` stay as their turns.
 * - Edges are re-attached as collapseTurns does (a span is a chain: no edge collides).
 */
import { nodeBase } from "@/components/tree/model/entry-info";
import type { CollapsedGraph } from "@/components/tree/model/turns";
import { type SpanNodeType, spanId, type TreeEdge, type TreeNode, type TurnNodeType } from "@/components/tree/types";

/** Overviews with more turns than this draw spans. */
export const SPAN_ABOVE = 300;
/** About this many nodes once aggregated. */
export const SPAN_TARGET = 120;

function groupable(n: TreeNode): n is TurnNodeType {
  return n.type === "turn" && !n.data.isLeaf && !n.data.isFirstKept && n.data.labels.length === 0;
}

const same = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

export function collapseSpans(graph: CollapsedGraph, expanded: ReadonlySet<string> = new Set()): CollapsedGraph {
  const { nodes, edges } = graph;
  let turns = 0;
  for (const n of nodes) if (n.type === "turn") turns++;
  if (turns <= SPAN_ABOVE) return graph;
  const size = Math.ceil(turns / SPAN_TARGET);

  const index = new Map<string, number>();
  for (let i = 0; i < nodes.length; i++) index.set(nodes[i]!.id, i);
  const parent = new Int32Array(nodes.length).fill(-1);
  const children = new Int32Array(nodes.length);
  for (const e of edges) {
    if (e.data?.kind !== "tree") continue;
    const s = index.get(e.source);
    const t = index.get(e.target);
    if (s === undefined || t === undefined || parent[t] !== -1) continue;
    parent[t] = s;
    children[s]!++;
  }

  // Runs, in pre-order: a run's members follow each other in the node list (single-child chains).
  const runOf = new Int32Array(nodes.length).fill(-1);
  const runs: number[][] = [];
  let open: number[] | null = null;
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i]!;
    const last = open?.at(-1);
    const prev = last === undefined ? undefined : (nodes[last] as TurnNodeType);
    const joins =
      open !== null &&
      prev !== undefined &&
      groupable(n) &&
      parent[i] === last &&
      children[last!] === 1 &&
      open.length < size &&
      n.data.isActive === prev.data.isActive &&
      same(n.data.summarisedBy, prev.data.summarisedBy);
    if (joins) {
      open!.push(i);
      continue;
    }
    if (open && open.length > 1) runs.push(open);
    open = groupable(n) ? [i] : null;
  }
  if (open && open.length > 1) runs.push(open);

  const spans: SpanNodeType[] = [];
  for (const members of runs) {
    const id = spanId(nodes[members[0]!]!.data.entryId);
    if (expanded.has(id)) continue;
    for (const m of members) runOf[m] = spans.length;
    spans.push(spanNode(id, members.map((m) => nodes[m] as TurnNodeType)));
  }
  let max = 0;
  for (const s of spans) max = Math.max(max, s.data.tokens);
  for (const s of spans) s.data.sizeShare = max > 0 ? Math.sqrt(s.data.tokens / max) : 0;

  const out: TreeNode[] = [];
  const idOf: string[] = new Array(nodes.length);
  const nodeOf = new Map(graph.nodeOf);
  for (let i = 0; i < nodes.length; i++) {
    const r = runOf[i]!;
    if (r < 0) {
      idOf[i] = nodes[i]!.id;
      out.push(nodes[i]!);
      continue;
    }
    const span = spans[r]!;
    idOf[i] = span.id;
    if (span.data.entryId === nodes[i]!.data.entryId) {
      out.push(span);
      for (const e of span.data.entryIds) nodeOf.set(e, span.id);
    }
  }
  const outEdges: TreeEdge[] = [];
  for (const e of edges) {
    const s = index.get(e.source);
    const t = index.get(e.target);
    const source = s === undefined ? e.source : idOf[s]!;
    const target = t === undefined ? e.target : idOf[t]!;
    if (source === target) continue;
    if (source === e.source && target === e.target) outEdges.push(e);
    else outEdges.push({ ...e, id: e.data?.kind === "firstKept" ? `kept:${source}` : `${source}->${target}`, source, target });
  }
  return { nodes: out, edges: outEdges, nodeOf };
}

function spanNode(id: string, turns: readonly TurnNodeType[]): SpanNodeType {
  const first = turns[0]!.data;
  const last = turns.at(-1)!.data;
  const files = new Set<string>();
  let tokens = 0;
  let errors = 0;
  let failedTools = 0;
  const entryIds: string[] = [];
  for (const t of turns) {
    tokens += t.data.tokens;
    errors += t.data.errors;
    failedTools += t.data.failedTools;
    for (const f of t.data.files) files.add(f);
    for (const e of t.data.entryIds) entryIds.push(e);
  }
  const label = `turns ${first.ordinal}–${last.ordinal}`;
  return {
    ...nodeBase(id, "span", `${label}: ${first.prompt}`),
    type: "span",
    data: {
      entryId: first.entryId,
      text: label,
      tokens,
      time: first.time,
      isActive: first.isActive,
      isLeaf: false,
      isFirstKept: false,
      summarisedBy: first.summarisedBy,
      matchesSearch: first.matchesSearch,
      ...(first.archived ? { archived: true } : {}),
      entryIds,
      turns: turns.length,
      firstOrdinal: first.ordinal,
      lastOrdinal: last.ordinal,
      prompt: first.prompt,
      lastPrompt: last.prompt,
      errors,
      failedTools,
      files: [...files],
      ...(first.startTime !== undefined ? { startTime: first.startTime } : {}),
      ...(last.endTime !== undefined ? { endTime: last.endTime } : {}),
      ...(first.gapBefore !== undefined ? { gapBefore: first.gapBefore } : {}),
      sizeShare: 0,
      isBranchPoint: last.isBranchPoint,
    },
  };
}
