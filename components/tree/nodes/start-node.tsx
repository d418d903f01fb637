"use client";
/**
 * The session start drawn above several roots (start-decor.ts): "session start" and how many
 * branches begin there. Not focusable or selectable; its accessible name is set on the node.
 */
import { Handle, type NodeProps, Position } from "@xyflow/react";
import { memo } from "react";
import type { StartNodeType } from "@/components/tree/types";

function StartNodeView({ data }: NodeProps<StartNodeType>) {
  return (
    <div className="tree-start" aria-hidden="true">
      session start · {data.roots} branches
      <Handle id="out" type="source" position={Position.Bottom} isConnectable={false} className="tree-handle" />
    </div>
  );
}

export const StartNode = memo(StartNodeView);
