"use client";
/**
 * Canvas node of a compaction (ui.md): amber, "[compaction: Nk tokens]", its short summary
 * on hover or focus, and "Show summary", which asks the inspector to open it
 * (onContextAction("inspect")). The dashed "first kept" edge leaves from its right side.
 */
import type { NodeProps } from "@xyflow/react";
import { memo } from "react";
import { cx, EntryMenuButton, NodeFlags, NodeHandles, NodeStatus, nodeStateClasses } from "@/components/tree/nodes/node-parts";
import { menuFacts, useTreeActions } from "@/components/tree/tree-context";
import type { CompactionNodeType } from "@/components/tree/types";
import { groupDigits } from "@/lib/text/group-digits";

function CompactionNodeView({ id, data, selected }: NodeProps<CompactionNodeType>) {
  const actions = useTreeActions();
  return (
    <div className={cx("tree-node", "tree-node--compaction", nodeStateClasses(data, selected))}>
      <NodeHandles kept="out" />
      <div className="tree-node__head">
        <span className="tree-role tree-role--compaction">compaction</span>
        <NodeFlags data={data} />
        <span className="tree-node__spacer" />
        <button
          type="button"
          className="tree-inline-button nodrag nopan"
          onClick={(e) => {
            e.stopPropagation();
            actions.contextAction("inspect", id);
          }}
        >
          Show summary
        </button>
        <EntryMenuButton id={id} canEditResend={false} facts={menuFacts("compaction", data)} />
      </div>
      <p className="tree-node__text">{data.text}</p>
      <NodeStatus data={data} />
      {data.shortSummary ? (
        <div className="tree-hovercard" aria-hidden="true">
          <strong>Compacted from {groupDigits(data.tokensBefore)} tokens</strong>
          <p className="tree-hovercard__pre">{data.shortSummary}</p>
        </div>
      ) : null}
    </div>
  );
}

export const CompactionNode = memo(CompactionNodeView);
