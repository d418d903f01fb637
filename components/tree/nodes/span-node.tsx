"use client";
/**
 * A span of turns in a long session's overview (spans.ts; ui.md "A map of a real session"):
 * "turns 120–139", when they ran, their errors and failed tools ("✕ 3"), files edited ("✎ 12"),
 * their tokens, the first and last prompts, and the size bar — drawn like a turn card (the same
 * marks zoomed out). A double-click, Enter or "Show turns" in its menu shows its turns.
 */
import type { NodeProps } from "@xyflow/react";
import { memo } from "react";
import { clockTime, formatTokens } from "@/components/tree/format";
import { cx, EntryMenuButton, NodeFlags, NodeHandles, NodeStatus, nodeStateClasses } from "@/components/tree/nodes/node-parts";
import type { SpanNodeType } from "@/components/tree/types";

function SpanNodeView({ id, data, selected }: NodeProps<SpanNodeType>) {
  const problems = data.errors + data.failedTools;
  const when = data.startTime !== undefined ? `${clockTime(data.startTime)}${data.endTime !== undefined ? `–${clockTime(data.endTime)}` : ""}` : "";
  return (
    <div
      className={cx(
        "tree-node",
        "tree-node--turn",
        "tree-node--span",
        nodeStateClasses(data, selected),
        problems > 0 && "tree-node--error",
        data.files.length > 0 && "tree-node--edits",
      )}
      title={data.files.length > 0 ? `Files: ${data.files.join(", ")}` : undefined}
    >
      <NodeHandles kept="in" />
      <div className="tree-node__head">
        <span className="tree-role tree-role--turn">{data.text}</span>
        {when ? <span className="tree-time">{when}</span> : null}
        <NodeFlags data={data} />
        <span className="tree-node__spacer" />
        {problems > 0 ? <span className="tree-mark tree-mark--error">✕ {problems}</span> : null}
        {data.files.length > 0 ? <span className="tree-mark tree-mark--edits">✎ {data.files.length}</span> : null}
        <span className="tree-tokens">{formatTokens(data.tokens)}</span>
        <EntryMenuButton id={id} canEditResend={false} turn span />
      </div>
      <p className="tree-node__text">
        {data.prompt || "(no text)"} … {data.lastPrompt || "(no text)"}
      </p>
      <span className="tree-size" style={{ width: `${Math.max(4, Math.round(data.sizeShare * 100))}%` }} aria-hidden="true" />
      <span className="sr-only">{`${data.turns} turns, ${formatTokens(data.tokens)}, ${problems} errors, ${data.files.length} files`}</span>
      <NodeStatus data={data} />
    </div>
  );
}

export const SpanNode = memo(SpanNodeView);
