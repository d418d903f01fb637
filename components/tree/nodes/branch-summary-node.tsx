"use client";
/**
 * Canvas node of a branch summary (ui.md): violet "Branch summary", attached under the
 * entry it hangs from; hovering (or focusing) shows the first lines of the summary.
 */
import type { NodeProps } from "@xyflow/react";
import { memo } from "react";
import {
  BranchCostBadge,
  cx,
  EntryMenuButton,
  NodeFlags,
  NodeHandles,
  NodeStatus,
  nodeStateClasses,
  TokenBadge,
} from "@/components/tree/nodes/node-parts";
import { menuFacts } from "@/components/tree/tree-context";
import type { BranchSummaryNodeType } from "@/components/tree/types";

function BranchSummaryNodeView({ id, data, selected }: NodeProps<BranchSummaryNodeType>) {
  const firstLines = data.preview.split("\n").join(" · ");
  return (
    <div className={cx("tree-node", "tree-node--branch", nodeStateClasses(data, selected))}>
      <NodeHandles kept="in" />
      <div className="tree-node__head">
        <span className="tree-role tree-role--branch">Branch summary</span>
        <NodeFlags data={data} />
        <span className="tree-node__spacer" />
        <BranchCostBadge firstEntryId={id} />
        <TokenBadge tokens={data.tokens} />
        <EntryMenuButton id={id} canEditResend={false} facts={menuFacts("branchSummary", data)} />
      </div>
      <p className="tree-node__text">{firstLines}</p>
      <NodeStatus data={data} />
      {data.preview ? (
        <div className="tree-hovercard" aria-hidden="true">
          <strong>Branch summary</strong>
          <p className="tree-hovercard__pre">{data.preview}</p>
        </div>
      ) : null}
    </div>
  );
}

export const BranchSummaryNode = memo(BranchSummaryNodeView);
