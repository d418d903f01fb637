"use client";
/**
 * A collapsed turn of the overview (semantic zoom, ui.md "A map of a real session"): "turn 12",
 * when it started (and the pause before it, "3 h later"), failed tools and errors ("✕ 2"), files
 * edited ("✎ 3"), its tokens, the prompt's first line, and along its bottom a size bar as long as
 * the turn is large (square root of its share of the largest turn). At far zoom the card is drawn
 * as those marks alone (tree.css `--far`), so the overview still says where the big turns, the
 * errors and the edits are. Label / "first kept" chips; the current-leaf ring.
 * Clicking it selects it; a double-click, Enter or the menu's "Show entries" expands the turn
 * into its entries; the "⋯" menu also has "Continue after this turn…".
 */
import type { NodeProps } from "@xyflow/react";
import { memo } from "react";
import { formatTokens } from "@/components/tree/format";
import { BranchCostBadge, cx, EntryMenuButton, NodeFlags, NodeHandles, NodeStatus, nodeStateClasses, useHeatStyle } from "@/components/tree/nodes/node-parts";
import { clockTime, duration } from "@/components/tree/format";
import type { TurnData, TurnNodeType } from "@/components/tree/types";

/** "12 steps · 3.4k tokens · 2 files · 1 error · 3 failed tools" (parts with nothing to say are left out). */
export function turnStats(d: Pick<TurnData, "steps" | "tokens" | "files" | "errors"> & Partial<Pick<TurnData, "failedTools">>): string {
  const parts = [`${d.steps} ${d.steps === 1 ? "step" : "steps"}`, formatTokens(d.tokens)];
  if (d.files.length > 0) parts.push(`${d.files.length} ${d.files.length === 1 ? "file" : "files"}`);
  if (d.errors > 0) parts.push(`${d.errors} ${d.errors === 1 ? "error" : "errors"}`);
  const failed = d.failedTools ?? 0;
  if (failed > 0) parts.push(`${failed} failed ${failed === 1 ? "tool" : "tools"}`);
  return parts.join(" · ");
}

function TurnNodeView({ id, data, selected }: NodeProps<TurnNodeType>) {
  const problems = data.errors + data.failedTools;
  const heat = useHeatStyle(data.entryIds);
  const files = data.files.length > 0 ? `Files: ${data.files.join(", ")}` : undefined;
  return (
    <div
      className={cx("tree-node", "tree-node--turn", nodeStateClasses(data, selected), problems > 0 && "tree-node--error", data.files.length > 0 && "tree-node--edits", heat.className)}
      style={heat.style}
      title={[files, heat.title].filter(Boolean).join("\n") || undefined}
    >
      <NodeHandles kept="in" />
      <div className="tree-node__head">
        <span className="tree-role tree-role--turn">{data.startsWithUser ? `turn ${data.ordinal}` : `turn ${data.ordinal}, continued`}</span>
        {data.startTime !== undefined ? <span className="tree-time">{clockTime(data.startTime)}</span> : null}
        {data.gapBefore !== undefined ? <span className="tree-chip tree-chip--gap">{duration(data.gapBefore)} later</span> : null}
        <NodeFlags data={data} />
        <span className="tree-node__spacer" />
        {data.entryIds[0] ? <BranchCostBadge firstEntryId={data.entryIds[0]} /> : null}
        {problems > 0 ? (
          <span className="tree-mark tree-mark--error" title={turnStats(data)}>
            ✕ {problems}
          </span>
        ) : null}
        {data.files.length > 0 ? <span className="tree-mark tree-mark--edits">✎ {data.files.length}</span> : null}
        <span className="tree-tokens">{formatTokens(data.tokens)}</span>
        <EntryMenuButton id={id} canEditResend={data.startsWithUser} turn />
      </div>
      <p className="tree-node__text">{data.prompt || "(no text)"}</p>
      <span className="tree-size" style={{ width: `${Math.max(4, Math.round(data.sizeShare * 100))}%` }} aria-hidden="true" />
      <span className="sr-only">{turnStats(data)}</span>
      <NodeStatus data={data} />
    </div>
  );
}

export const TurnNode = memo(TurnNodeView);
