"use client";
/**
 * What the pointer and focus do on canvas nodes (ui.md "Click looks, actions act"):
 * - a click selects (the inspector shows it, the map highlights its path, the chat scrolls to
 *   it) and moves nothing — only "Continue from here" moves the leaf; a click on a folded run
 *   unfolds it;
 * - a double-click on a turn or a span shows its entries (or turns);
 * - right-click opens the node's menu where it was clicked;
 * - tabbing onto a node selects it.
 */
import type { NodeMouseHandler } from "@xyflow/react";
import { type FocusEvent, useCallback, useRef } from "react";
import { type MenuRequest, menuRequestOf } from "@/components/tree/tree-context";
import type { CanvasNode } from "@/components/tree/types";

export function useNodeHandlers(o: {
  select: (id: string) => void;
  unfold: (entryIds: readonly string[]) => void;
  expandTurn: (id: string) => void;
  openMenu: (request: MenuRequest) => void;
  selectedId: string | null;
}) {
  const { select, unfold, expandTurn, openMenu } = o;
  const selected = useRef(o.selectedId);
  selected.current = o.selectedId;

  const onNodeClick = useCallback<NodeMouseHandler<CanvasNode>>(
    (_e, node) => {
      if (node.type === "band" || node.type === "start") return;
      if (node.type === "fold") unfold(node.data.entryIds);
      else select(node.id);
    },
    [unfold, select],
  );

  const onNodeDoubleClick = useCallback<NodeMouseHandler<CanvasNode>>(
    (_e, node) => {
      if (node.type === "turn" || node.type === "span") expandTurn(node.id);
    },
    [expandTurn],
  );

  const onNodeContextMenu = useCallback<NodeMouseHandler<CanvasNode>>(
    (e, node) => {
      if (node.type === "band" || node.type === "fold" || node.type === "start") return;
      e.preventDefault();
      const returnFocus = (e.target as HTMLElement).closest<HTMLElement>(".react-flow__node");
      openMenu({ ...menuRequestOf(node), x: e.clientX, y: e.clientY, returnFocus });
    },
    [openMenu],
  );

  const onFocus = useCallback(
    (e: FocusEvent<HTMLElement>) => {
      const el = e.target as HTMLElement;
      if (!el.classList.contains("react-flow__node")) return;
      const id = el.dataset.id;
      if (id && !id.startsWith("band:") && !id.startsWith("start:") && id !== selected.current) select(id);
    },
    [select],
  );

  return { onNodeClick, onNodeDoubleClick, onNodeContextMenu, onFocus };
}
