/**
 * The canvas's node types, at module scope so React Flow never sees a new object
 * (conventions rule 8).
 */
import type { EdgeTypes, NodeTypes } from "@xyflow/react";
import { BandNode } from "@/components/tree/nodes/band-node";
import { BranchSummaryNode } from "@/components/tree/nodes/branch-summary-node";
import { CompactionNode } from "@/components/tree/nodes/compaction-node";
import { EntryNode } from "@/components/tree/nodes/entry-node";
import { FoldNode } from "@/components/tree/nodes/fold-node";
import { SpanNode } from "@/components/tree/nodes/span-node";
import { StartNode } from "@/components/tree/nodes/start-node";
import { TurnNode } from "@/components/tree/nodes/turn-node";
import { WrapEdge } from "@/components/tree/nodes/wrap-edge";

export const nodeTypes = {
  entry: EntryNode,
  compaction: CompactionNode,
  branchSummary: BranchSummaryNode,
  fold: FoldNode,
  band: BandNode,
  turn: TurnNode,
  start: StartNode,
  span: SpanNode,
} satisfies NodeTypes;

/** Edge types beyond React Flow's own: the wrapped overview's slab-crossing edge. */
export const edgeTypes = { wrap: WrapEdge } satisfies EdgeTypes;
