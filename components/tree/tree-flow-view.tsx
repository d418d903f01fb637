"use client";
/**
 * The React Flow part of the tree canvas: read-only (no dragging, connecting, deleting or
 * box selection), nodes focusable, only visible elements rendered, bands behind the nodes,
 * a toggleable MiniMap and zoom Controls. Selection is controlled: `selectedId` marks one
 * node `selected`; React Flow's own selection is off.
 */
import {
  Controls,
  MiniMap,
  type NodeMouseHandler,
  type OnInit,
  ReactFlow,
} from "@xyflow/react";
import { useMemo } from "react";
import { nodeTypes } from "@/components/tree/nodes/node-types";
import type { CanvasNode, TreeEdge } from "@/components/tree/types";
import type { TreeModel } from "@/components/tree/use-tree-model";
import { useColorScheme } from "@/components/theme/use-color-scheme";

export interface TreeFlowViewProps {
  model: TreeModel;
  selectedId: string | null;
  minimap: boolean;
  onInit: OnInit<CanvasNode, TreeEdge>;
  onNodeClick: NodeMouseHandler<CanvasNode>;
  onNodeContextMenu: NodeMouseHandler<CanvasNode>;
}

function miniMapColor(node: CanvasNode): string {
  switch (node.type) {
    case "band":
      return "color-mix(in srgb, var(--color-compaction) 30%, transparent)";
    case "compaction":
      return "var(--color-compaction)";
    case "branchSummary":
      return "var(--color-branch)";
    default:
      return node.data.isActive ? "var(--color-accent)" : "var(--muted)";
  }
}

function edgeClass(edge: TreeEdge): string {
  if (edge.data?.kind === "firstKept") return "tree-edge tree-edge--kept";
  return edge.data?.isActive ? "tree-edge tree-edge--active" : "tree-edge";
}

export function TreeFlowView({ model, selectedId, minimap, onInit, onNodeClick, onNodeContextMenu }: TreeFlowViewProps) {
  // Named after hydration: "system" read matchMedia while hydrating and mismatched in dark themes.
  const colorScheme = useColorScheme();
  const { layout, bandNodes } = model;

  const nodes = useMemo<CanvasNode[]>(() => {
    const at = selectedId === null ? undefined : layout.index.get(selectedId);
    let tree: CanvasNode[] = layout.nodes;
    if (at !== undefined) {
      tree = layout.nodes.slice();
      tree[at] = { ...layout.nodes[at]!, selected: true } as CanvasNode;
    }
    return bandNodes.length > 0 ? (bandNodes as CanvasNode[]).concat(tree) : tree;
  }, [layout, bandNodes, selectedId]);

  const edges = useMemo<TreeEdge[]>(
    () =>
      model.edges.map((e) => ({
        ...e,
        type: "smoothstep",
        pathOptions: { borderRadius: 10, offset: 24 },
        className: edgeClass(e),
        zIndex: e.data?.isActive ? 1 : 0,
        focusable: false,
        selectable: false,
        domAttributes: { "aria-hidden": "true" },
      })),
    [model.edges],
  );

  return (
    <ReactFlow<CanvasNode, TreeEdge>
      nodes={nodes}
      edges={edges}
      nodeTypes={nodeTypes}
      onlyRenderVisibleElements
      nodesDraggable={false}
      nodesConnectable={false}
      elementsSelectable={false}
      nodesFocusable
      edgesFocusable={false}
      deleteKeyCode={null}
      selectionKeyCode={null}
      multiSelectionKeyCode={null}
      zoomOnDoubleClick={false}
      minZoom={0.05}
      maxZoom={2}
      colorMode={colorScheme}
      onInit={onInit}
      onNodeClick={onNodeClick}
      onNodeContextMenu={onNodeContextMenu}
    >
      <Controls showInteractive={false} showFitView={false} position="bottom-left" />
      {minimap ? (
        <MiniMap<CanvasNode>
          pannable
          zoomable
          nodeColor={miniMapColor}
          nodeStrokeWidth={0}
          ariaLabel="Minimap of the session tree"
          position="bottom-right"
        />
      ) : null}
    </ReactFlow>
  );
}
