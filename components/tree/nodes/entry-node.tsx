"use client";
/**
 * Canvas node of one session entry (ui.md "visual language"): role mark (a word), the §16.2
 * row text on up to two lines, token badge, label chip, "first kept" flag, the current-leaf
 * ring with a hidden "you are here", muted off the active path, and the "⋯" menu button.
 */
import type { NodeProps } from "@xyflow/react";
import { memo } from "react";
import { bodyText } from "@/components/tree/format";
import { BranchCostBadge, cx, EntryMenuButton, NodeFlags, NodeHandles, NodeStatus, nodeStateClasses, TokenBadge, useHeatStyle } from "@/components/tree/nodes/node-parts";
import { menuFacts } from "@/components/tree/tree-context";
import type { EntryNodeType } from "@/components/tree/types";

function EntryNodeView({ id, data, selected }: NodeProps<EntryNodeType>) {
  const heat = useHeatStyle([id]);
  return (
    <div className={cx("tree-node", "tree-node--entry", nodeStateClasses(data, selected), heat.className)} style={heat.style} title={heat.title} data-role={data.role}>
      <NodeHandles kept="in" />
      <div className="tree-node__head">
        <span className={cx("tree-role", `tree-role--${data.role}`)}>
          {data.role}
          <span className="sr-only">: </span>
        </span>
        <NodeFlags data={data} />
        <span className="tree-node__spacer" />
        <BranchCostBadge firstEntryId={id} />
        <TokenBadge tokens={data.tokens} />
        <EntryMenuButton id={id} canEditResend={data.isUserMessage} facts={menuFacts("entry", data)} />
      </div>
      <p className="tree-node__text">{bodyText(data.text, data.role)}</p>
      <NodeStatus data={data} />
    </div>
  );
}

export const EntryNode = memo(EntryNodeView);
