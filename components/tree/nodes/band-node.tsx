"use client";
/**
 * The amber translucent band behind the entries a compaction summarised (ui.md). Drawn as
 * a background node (zIndex -1, not focusable or selectable); its accessible name, set on
 * the node by useTreeModel, is "Summarised by compaction: [compaction: Nk tokens]".
 */
import type { NodeProps } from "@xyflow/react";
import { memo } from "react";
import type { BandNodeType } from "@/components/tree/types";

function BandNodeView({ data }: NodeProps<BandNodeType>) {
  return (
    <div className="tree-band">
      <span className="tree-band__caption" aria-hidden="true">
        summarised by {data.compactionText}
      </span>
    </div>
  );
}

export const BandNode = memo(BandNodeView);
