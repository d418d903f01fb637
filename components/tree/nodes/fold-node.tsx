"use client";
/**
 * A folded run of tool steps (ui.md): a grey pill "12 tool steps"; clicking it (or Enter
 * on the focused node) unfolds the run by adding its entries to the canvas's `expanded`.
 */
import type { NodeProps } from "@xyflow/react";
import { memo } from "react";
import { cx, NodeHandles, NodeStatus, nodeStateClasses } from "@/components/tree/nodes/node-parts";
import { useTreeActions } from "@/components/tree/tree-context";
import type { FoldNodeType } from "@/components/tree/types";

function FoldNodeView({ data, selected }: NodeProps<FoldNodeType>) {
  const actions = useTreeActions();
  return (
    <div className={cx("tree-node", "tree-node--fold", nodeStateClasses(data, selected))}>
      <NodeHandles kept="in" />
      <button
        type="button"
        className="tree-fold nodrag nopan"
        onClick={(e) => {
          e.stopPropagation();
          actions.unfold(data.entryIds);
        }}
      >
        {data.text}
        <span className="sr-only">, folded: press to unfold</span>
        {data.isFirstKept ? <span className="tree-chip tree-chip--kept">first kept</span> : null}
      </button>
      <NodeStatus data={data} />
    </div>
  );
}

export const FoldNode = memo(FoldNodeView);
