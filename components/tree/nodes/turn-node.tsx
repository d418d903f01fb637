"use client";
/**
 * A collapsed turn of the overview (semantic zoom, ui.md): the prompt's first line, then
 * steps, tokens, files touched and errors; label / "first kept" chips; the current-leaf ring.
 * Clicking it selects it; a double-click, Enter or the menu's "Show entries" expands the turn
 * into its entries; the "⋯" menu also has "Continue after this turn…".
 */
import type { NodeProps } from "@xyflow/react";
import { memo } from "react";
import { formatTokens } from "@/components/tree/format";
import { cx, EntryMenuButton, NodeFlags, NodeHandles, NodeStatus, nodeStateClasses } from "@/components/tree/nodes/node-parts";
import type { TurnData, TurnNodeType } from "@/components/tree/types";

/** "12 steps · 3.4k tokens · 2 files · 1 error" (parts with nothing to say are left out). */
export function turnStats(d: Pick<TurnData, "steps" | "tokens" | "files" | "errors">): string {
  const parts = [`${d.steps} ${d.steps === 1 ? "step" : "steps"}`, formatTokens(d.tokens)];
  if (d.files.length > 0) parts.push(`${d.files.length} ${d.files.length === 1 ? "file" : "files"}`);
  if (d.errors > 0) parts.push(`${d.errors} ${d.errors === 1 ? "error" : "errors"}`);
  return parts.join(" · ");
}

function TurnNodeView({ id, data, selected }: NodeProps<TurnNodeType>) {
  return (
    <div
      className={cx("tree-node", "tree-node--turn", nodeStateClasses(data, selected), data.errors > 0 && "tree-node--error")}
      title={data.files.length > 0 ? `Files: ${data.files.join(", ")}` : undefined}
    >
      <NodeHandles kept="in" />
      <div className="tree-node__head">
        <span className="tree-role tree-role--turn">{data.startsWithUser ? "turn" : "turn, continued"}</span>
        <NodeFlags data={data} />
        <span className="tree-node__spacer" />
        <span className="tree-tokens">{turnStats(data)}</span>
        <EntryMenuButton id={id} canEditResend={data.startsWithUser} turn />
      </div>
      <p className="tree-node__text">{data.prompt || "(no text)"}</p>
      <NodeStatus data={data} />
    </div>
  );
}

export const TurnNode = memo(TurnNodeView);
