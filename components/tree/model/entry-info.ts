/**
 * Per-entry facts for canvas nodes: role mark, labels from label entries (the token estimate
 * lives in lib/session-view/tree-skeleton),
 * and the static handle positions every node declares. Pure: no React, no DOM.
 */
import type { Position } from "@xyflow/react";
import { nodeSize } from "@/components/tree/layout/layout";
import type { RoleMark, TreeNode } from "@/components/tree/types";
import type { SessionEntry } from "@/lib/session/types";

export function str(v: unknown): string {
  return typeof v === "string" ? v : "";
}

/** Labels from label entries in file order, the last one winning (session-engine.md §1.6). */
export function labelsFromEntries(entries: readonly SessionEntry[]): Map<string, string> {
  const labels = new Map<string, string>();
  for (const e of entries) {
    if (e.type !== "label" || typeof e.targetId !== "string") continue;
    if (typeof e.label === "string" && e.label !== "") labels.set(e.targetId, e.label);
    else labels.delete(e.targetId);
  }
  return labels;
}

/** The role mark of an entry, from its type and message role (a skeleton row carries both). */
export function roleMark(entry: { type: string; role?: string }): RoleMark {
  switch (entry.type) {
    case "message": {
      const role = entry.role;
      if (role === "user" || role === "assistant") return role;
      if (role === "toolResult" || role === "bashExecution" || role === "pythonExecution") return "tool";
      return "other";
    }
    case "custom_message":
      return "custom";
    case "compaction":
    case "branch_summary":
      return "summary";
    default:
      return "setting";
  }
}

export { entryTokens } from "@/lib/session-view/tree-skeleton";

type Handles = NonNullable<TreeNode["handles"]>;

/** Static handle positions, so edges of nodes not rendered yet (onlyRenderVisibleElements) still draw. */
function makeHandles(type: TreeNode["type"] | "start"): Handles {
  const { width, height } = type === "start" ? { width: 200, height: 30 } : nodeSize(type);
  // 1×1 handles centred on the edge midpoints, where the rendered (invisible) ones sit.
  const [cx, cy] = [width / 2 - 0.5, height / 2 - 0.5];
  const list: Handles = [
    { id: "in", type: "target", position: "top" as Position, x: cx, y: -0.5, width: 1, height: 1 },
    { id: "out", type: "source", position: "bottom" as Position, x: cx, y: height - 0.5, width: 1, height: 1 },
  ];
  const kept = type === "compaction" ? { id: "kept-out", type: "source" as const } : { id: "kept-in", type: "target" as const };
  list.push({ ...kept, position: "right" as Position, x: width - 0.5, y: cy, width: 1, height: 1 });
  return list;
}

/** The fields every node of a type starts with (position set by the layout). */
export function nodeBase(id: string, type: TreeNode["type"], ariaLabel: string) {
  const { width, height } = nodeSize(type);
  // `measured` too: the nodes are controlled, so React Flow's own measurements never come
  // back through onNodesChange, and fitView waits until every node has `measured` sizes.
  return { id, position: { x: 0, y: 0 }, width, height, measured: { width, height }, handles: HANDLES[type], ariaLabel };
}

/** One shared array per node type: React Flow only reads them (and fills in a default size). */
export const HANDLES: Record<TreeNode["type"] | "start", Handles> = {
  start: makeHandles("start"),
  entry: makeHandles("entry"),
  compaction: makeHandles("compaction"),
  branchSummary: makeHandles("branchSummary"),
  fold: makeHandles("fold"),
  turn: makeHandles("turn"),
  span: makeHandles("span"),
};
