/**
 * Turn grouping of the canvas overview (semantic zoom, ui.md "visual language").
 * Pure: no React, no DOM. Linear in the number of nodes; every walk is iterative.
 *
 * A turn is a user message and everything after it up to the next user message on that
 * branch. On the canvas graph (skeletonToFlow's nodes, display pre-order, tree edges):
 * - a node starts a new turn when it is a user message, a root, the child of a landmark node
 *   (compaction, branch summary), or a child of a node with several visible children — a
 *   branch that starts mid-turn continues that turn as its own "continuation" turn node;
 * - otherwise it joins its parent's turn, so every turn is a single-child chain and the turn
 *   graph has exactly the branch structure of the tree;
 * - compactions and branch summaries are never turn members: they stay their own nodes
 *   (landmarks), so a compaction inside a turn splits it into the part before and a
 *   continuation after;
 * - folded runs ("N tool steps") are members like any entry; their entries count.
 *
 * `collapseTurns` replaces the members of each collapsed turn with one `turn:<first entry id>`
 * node carrying the prompt's first line, steps, tokens, files touched and errors; edges are
 * re-attached to the turn nodes (tree edges keep nearest-visible-ancestor semantics, the
 * dashed first-kept edge points at the turn holding the kept entry).
 */
import { nodeBase } from "@/components/tree/model/entry-info";
import type { FlowGraph } from "@/components/tree/layout/to-flow";
import { runSteps, type Steps, tick } from "@/lib/session/stepwise";
import { type TreeEdge, type TreeNode, type TurnNodeType, turnId } from "@/components/tree/types";
import { FLAG } from "@/lib/session-view/tree-skeleton";

export interface Turn {
  id: string;
  /** Indices into `flow.nodes`, top to bottom (a parent → only-child chain). */
  members: number[];
}

export interface TurnGrouping {
  turns: Turn[];
  /** For each node, the index into `turns` of its turn, or -1 (compactions, branch summaries). */
  turnOf: Int32Array;
  /** Index of each node's tree parent, or -1. */
  parent: Int32Array;
  /** Visible children per node. */
  childCount: Int32Array;
  /** Node id → index into the nodes. */
  index: Map<string, number>;
  /** Turn nodes built so far (collapseTurns reuses them when only the expanded set changes). */
  built: Map<string, TurnNodeType>;
  /** Per turn: its number on its path (user prompts from the root, "turn 12"). */
  ordinal: Int32Array;
  /** Per turn: estimated tokens; and the largest, for the size bar (TurnData.sizeShare). */
  tokens: Float64Array;
  maxTokens: number;
}

function isUserMessage(node: TreeNode): boolean {
  return node.type === "entry" && node.data.isUserMessage;
}

/** Groups the nodes of a canvas graph into turns (see the module contract). */
export function groupTurns(flow: { nodes: readonly TreeNode[]; edges: readonly TreeEdge[] }, ordinalBase = 0): TurnGrouping {
  return runSteps(groupTurnsSteps(flow, ordinalBase));
}

/**
 * groupTurns as steps (lib/session/stepwise.ts). `ordinalBase`: user prompts above the graph's
 * roots (a map of the current path's tail numbers its turns from there; 0 for a whole tree).
 */
export function* groupTurnsSteps(flow: { nodes: readonly TreeNode[]; edges: readonly TreeEdge[] }, ordinalBase = 0): Steps<TurnGrouping> {
  const { nodes, edges } = flow;
  const n = nodes.length;
  const index = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    if (tick(i)) yield;
    index.set(nodes[i]!.id, i);
  }
  const parent = new Int32Array(n).fill(-1);
  const childCount = new Int32Array(n);
  for (let k = 0; k < edges.length; k++) {
    if (tick(k)) yield;
    const e = edges[k]!;
    if (e.data?.kind === "firstKept") continue;
    const s = index.get(e.source);
    const t = index.get(e.target);
    if (s === undefined || t === undefined || s === t || parent[t] !== -1) continue;
    parent[t] = s;
    childCount[s]!++;
  }
  const turnOf = new Int32Array(n).fill(-1);
  const turns: Turn[] = [];
  for (let i = 0; i < n; i++) {
    if (tick(i)) yield;
    const node = nodes[i]!;
    if (node.type === "compaction" || node.type === "branchSummary") continue;
    const p = parent[i]!;
    const joins = p >= 0 && p < i && turnOf[p]! >= 0 && childCount[p] === 1 && !isUserMessage(node);
    if (joins) {
      turnOf[i] = turnOf[p]!;
      turns[turnOf[p]!]!.members.push(i);
    } else {
      turnOf[i] = turns.length;
      turns.push({ id: turnId(node.data.entryId), members: [i] });
    }
  }
  // Turn numbers and sizes: nodes are in pre-order, so a parent's number is known before its children's.
  const ordinal = new Int32Array(turns.length);
  const tokens = new Float64Array(turns.length);
  const ordAt = new Int32Array(n);
  let maxTokens = 0;
  for (let i = 0; i < n; i++) {
    if (tick(i)) yield;
    const p = parent[i]!;
    const above = p >= 0 && p < i ? ordAt[p]! : ordinalBase;
    const t = turnOf[i]!;
    if (t < 0) {
      ordAt[i] = above;
      continue;
    }
    const turn = turns[t]!;
    if (turn.members[0] === i) ordinal[t] = above + (isUserMessage(nodes[i]!) ? 1 : 0);
    ordAt[i] = ordinal[t]!;
    tokens[t]! += nodes[i]!.data.tokens;
    if (tokens[t]! > maxTokens) maxTokens = tokens[t]!;
  }
  return { turns, turnOf, parent, childCount, index, built: new Map(), ordinal, tokens, maxTokens };
}

/** A pause this long or longer before a turn is a time gap worth showing (ui.md "map"). */
export const GAP_MS = 30 * 60_000;

const FILE_CALL = /\[(?:write|edit): ([^\]\s][^\]]*)\]/g;

/** Distinct paths of the `[write: …]` / `[edit: …]` calls in row texts (§16.2), in order. */
export function filesTouched(texts: readonly string[]): string[] {
  const seen = new Set<string>();
  for (const t of texts) {
    if (!t.includes("[edit: ") && !t.includes("[write: ")) continue; // most rows: no regex run
    for (const m of t.matchAll(FILE_CALL)) seen.add(m[1]!.trim());
  }
  return [...seen];
}

/** First line of a text, without the `user: ` prefix. */
function firstLine(text: string): string {
  const body = text.startsWith("user: ") ? text.slice(6) : text;
  const nl = body.indexOf("\n");
  return (nl < 0 ? body : body.slice(0, nl)).trim();
}

export interface CollapsedGraph {
  nodes: TreeNode[];
  edges: TreeEdge[];
  /** Visible entry id → id of the node showing it (a turn, a fold, or itself). */
  nodeOf: Map<string, string>;
}

/**
 * The graph with every turn for which `isCollapsed(turn)` holds replaced by one turn node.
 * Node order stays display pre-order (a turn takes its first member's place).
 */
export function collapseTurns(flow: FlowGraph, grouping: TurnGrouping, isCollapsed: (turn: Turn) => boolean): CollapsedGraph {
  return runSteps(collapseTurnsSteps(flow, grouping, isCollapsed));
}

/** collapseTurns as steps (lib/session/stepwise.ts). */
export function* collapseTurnsSteps(flow: FlowGraph, grouping: TurnGrouping, isCollapsed: (turn: Turn) => boolean): Steps<CollapsedGraph> {
  const { nodes: input, rows, rowOf } = flow;
  const { turns, turnOf } = grouping;
  const collapsed = turns.map(isCollapsed);
  const idOf: string[] = new Array(input.length);
  const nodes: TreeNode[] = [];
  for (let i = 0; i < input.length; i++) {
    if (tick(i)) yield;
    const t = turnOf[i]!;
    if (t < 0 || !collapsed[t]) {
      idOf[i] = input[i]!.id;
      nodes.push(input[i]!);
      continue;
    }
    const turn = turns[t]!;
    idOf[i] = turn.id;
    if (turn.members[0] !== i) continue;
    let node = grouping.built.get(turn.id);
    if (!node) {
      node = turnNode(turn, t, input, rows, rowOf, grouping);
      grouping.built.set(turn.id, node);
    }
    nodes.push(node);
  }
  // Only the entries of collapsed turns change the node showing them.
  const nodeOf = new Map(flow.nodeOf);
  yield;
  for (let i = 0; i < nodes.length; i++) {
    if (tick(i)) yield;
    const n = nodes[i]!;
    if (n.type === "turn") for (const id of n.data.entryIds) nodeOf.set(id, n.id);
  }
  // A turn is a chain, so re-attached edges never collide: the edge into a turn is its first
  // member's only incoming edge, edges inside it vanish, and edges out of it keep distinct targets.
  const { index } = grouping;
  const edges: TreeEdge[] = [];
  for (let k = 0; k < flow.edges.length; k++) {
    if (tick(k)) yield;
    const e = flow.edges[k]!;
    const s = index.get(e.source);
    const t = index.get(e.target);
    const source = s === undefined ? e.source : idOf[s]!;
    const target = t === undefined ? e.target : idOf[t]!;
    if (source === target) continue;
    if (source === e.source && target === e.target) {
      edges.push(e);
      continue;
    }
    const id = e.data?.kind === "firstKept" ? `kept:${source}` : `${source}->${target}`;
    edges.push({ ...e, id, source, target });
  }
  return { nodes, edges, nodeOf };
}

/** When the turn's last entry was written: what a child turn's time gap is measured from. */
function endTime(node: TreeNode, rows: FlowGraph["rows"], rowOf: ReadonlyMap<string, number>): number {
  const last = node.type === "turn" || node.type === "fold" ? (node.data.entryIds.at(-1) ?? node.data.entryId) : node.data.entryId;
  return rows[rowOf.get(last) ?? -1]?.entry.t ?? Number.NaN;
}

function turnNode(
  turn: Turn,
  t: number,
  input: readonly TreeNode[],
  rows: FlowGraph["rows"],
  rowOf: ReadonlyMap<string, number>,
  grouping: TurnGrouping,
): TurnNodeType {
  const { childCount } = grouping;
  // One pass over the members (no per-member closures: 100k-entry sessions have 11k turns).
  const first = input[turn.members[0]!]!;
  const last = turn.members[turn.members.length - 1]!;
  const entryIds: string[] = [];
  const labels: string[] = [];
  const texts: string[] = [];
  let summarisedBy: string[] = [];
  let tokens = 0;
  let errors = 0;
  let failedTools = 0;
  let startTime = Number.NaN;
  let lastTime = Number.NaN;
  let isLeaf = false;
  let hiddenLeaf: string | undefined;
  let isFirstKept = false;
  for (const m of turn.members) {
    const node = input[m]!;
    const d = node.data;
    if (d.label) labels.push(d.label);
    if (d.isLeaf) {
      isLeaf = true;
      hiddenLeaf = d.hiddenLeaf;
    }
    if (d.isFirstKept) isFirstKept = true;
    if (d.summarisedBy.length > 0) summarisedBy = summarisedBy.length === 0 ? d.summarisedBy : [...new Set([...summarisedBy, ...d.summarisedBy])];
    const ids = node.type === "fold" ? node.data.entryIds : [d.entryId];
    for (const id of ids) {
      const row = rows[rowOf.get(id)!]!;
      entryIds.push(id);
      texts.push(row.text);
      tokens += row.entry.tokens;
      if ((row.entry.flags & FLAG.error) !== 0) errors++;
      if ((row.entry.flags & FLAG.toolError) !== 0) failedTools++;
      if (!Number.isNaN(row.entry.t)) {
        if (Number.isNaN(startTime)) startTime = row.entry.t;
        lastTime = row.entry.t;
      }
    }
  }
  const startsWithUser = isUserMessage(first);
  const p = grouping.parent[turn.members[0]!]!;
  const before = p >= 0 ? endTime(input[p]!, rows, rowOf) : Number.NaN;
  const gapBefore = startTime - before;
  const prompt = first.data.firstLine ?? firstLine(first.data.text);
  return {
    ...nodeBase(turn.id, "turn", startsWithUser ? `turn: ${prompt}` : `turn continued: ${prompt}`),
    type: "turn",
    data: {
      entryId: first.data.entryId,
      text: prompt,
      ...(labels.length > 0 ? { label: labels[0] } : {}),
      tokens,
      time: startTime,
      isActive: first.data.isActive,
      isLeaf,
      ...(hiddenLeaf !== undefined ? { hiddenLeaf } : {}),
      isFirstKept,
      summarisedBy,
      matchesSearch: first.data.matchesSearch,
      ...(first.data.archived ? { archived: true } : {}),
      entryIds,
      prompt,
      startsWithUser,
      steps: entryIds.length - (startsWithUser ? 1 : 0),
      files: filesTouched(texts),
      errors,
      failedTools,
      ordinal: grouping.ordinal[t]!,
      ...(Number.isNaN(startTime) ? {} : { startTime, endTime: lastTime }),
      ...(gapBefore >= GAP_MS ? { gapBefore } : {}),
      sizeShare: grouping.maxTokens > 0 ? Math.sqrt(tokens / grouping.maxTokens) : 0,
      labels,
      isBranchPoint: childCount[last]! > 1,
    },
  };
}
