"use client";
/**
 * The React Flow part of the tree canvas: read-only (no dragging, connecting, deleting or
 * box selection), nodes focusable, only visible elements rendered (and for a large layout only
 * the window around the view handed over, flow-window.ts), bands behind the nodes,
 * landmark captions in screen space, a toggleable minimap and zoom Controls. Selection is
 * controlled: `selectedId` marks one node `selected` (an entry inside a collapsed turn marks
 * its turn); React Flow's own selection is off.
 */
import { Controls, type NodeMouseHandler, type OnInit, type OnMoveEnd, ReactFlow, useReactFlow, useStore } from "@xyflow/react";
import { useMemo } from "react";
import { isWindowed, windowKeyOf, windowOf, windowRectOf } from "@/components/tree/flow-window";
import type { Landmark } from "@/components/tree/landmarks";
import { nodeTypes } from "@/components/tree/nodes/node-types";
import { TreeLandmarks } from "@/components/tree/tree-landmarks";
import { TreeMinimap } from "@/components/tree/tree-minimap";
import type { CanvasNode, TreeEdge } from "@/components/tree/types";
import type { TreeModel } from "@/components/tree/use-tree-model";
import { useColorScheme } from "@/components/theme/use-color-scheme";

export interface TreeFlowViewProps {
  model: TreeModel;
  selectedId: string | null;
  minimap: boolean;
  onInit: OnInit<CanvasNode, TreeEdge>;
  onNodeClick: NodeMouseHandler<CanvasNode>;
  onNodeDoubleClick: NodeMouseHandler<CanvasNode>;
  onNodeContextMenu: NodeMouseHandler<CanvasNode>;
  onMoveEnd: OnMoveEnd;
  onJump: (landmark: Landmark) => void;
}

/** Below this zoom node texts are unreadable: nodes are drawn as solid marks (tree.css `--far`). */
const FAR_ZOOM = 0.2;

function edgeClass(edge: TreeEdge): string {
  if (edge.data?.kind === "firstKept") return "tree-edge tree-edge--kept";
  return edge.data?.isActive ? "tree-edge tree-edge--active" : "tree-edge";
}

export function TreeFlowView(props: TreeFlowViewProps) {
  const { model, selectedId, minimap, onInit, onNodeClick, onNodeContextMenu } = props;
  // Named after hydration: "system" read matchMedia while hydrating and mismatched in dark themes.
  const colorScheme = useColorScheme();
  const { layout, bandNodes } = model;
  const flow = useReactFlow<CanvasNode, TreeEdge>();
  const far = useStore((s) => s.transform[2] < FAR_ZOOM);
  // Fit view must be able to show the whole tree, however tall.
  const minZoom = Math.min(0.05, 300 / Math.max(layout.bounds.width, layout.bounds.height, 1));

  // A large layout reaches React Flow as the window around the view (flow-window.ts); the key
  // changes only when the view moves about a viewport or zooms ~40 %, so this re-renders rarely.
  const windowed = isWindowed(layout.nodes.length);
  const windowKey = useStore((s) => (windowed ? windowKeyOf(s.transform, s.width, s.height) : ""));
  const part = useMemo(() => {
    if (!windowed) return { nodes: layout.nodes, edges: model.edges };
    const rect = windowRectOf(windowKey);
    return rect ? windowOf(layout.nodes, layout.index, model.edges, rect) : { nodes: [], edges: [] };
  }, [windowed, windowKey, layout, model.edges]);

  // The selection's path: the part of root → selection that is off the current path (the rest is
  // drawn as the current path already) is highlighted, nodes and the edges into them.
  const shown = selectedId === null ? undefined : (model.flow.nodeOf.get(selectedId) ?? selectedId);
  const selectedPath = useMemo(() => {
    const ids = new Set<string>();
    for (let i = shown === undefined ? -1 : (layout.index.get(shown) ?? -1); i >= 0 && !layout.nodes[i]!.data.isActive; i = layout.parent[i]!) {
      ids.add(layout.nodes[i]!.id);
    }
    return ids;
  }, [shown, layout]);

  const nodes = useMemo<CanvasNode[]>(() => {
    let tree: CanvasNode[] = part.nodes;
    if (shown !== undefined || selectedPath.size > 0) {
      tree = part.nodes.map((n) => {
        const onPath = selectedPath.has(n.id);
        if (n.id !== shown && !onPath) return n;
        return { ...n, ...(n.id === shown ? { selected: true } : {}), ...(onPath ? { className: "tree-selected-path" } : {}) } as CanvasNode;
      });
    }
    return bandNodes.length > 0 ? (bandNodes as CanvasNode[]).concat(tree) : tree;
  }, [part, bandNodes, shown, selectedPath]);

  const edges = useMemo<TreeEdge[]>(() => {
    return part.edges.map((e) => ({
      ...e,
      type: "smoothstep",
      pathOptions: { borderRadius: 10, offset: 24 },
      className: selectedPath.has(e.target) && e.data?.kind !== "firstKept" ? `${edgeClass(e)} tree-edge--selected` : edgeClass(e),
      zIndex: e.data?.isActive ? 1 : 0,
      focusable: false,
      selectable: false,
      domAttributes: { "aria-hidden": "true" },
    }));
  }, [part.edges, selectedPath]);

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
      minZoom={minZoom}
      className={far ? "tree-flow--far" : undefined}
      maxZoom={2}
      colorMode={colorScheme}
      onInit={onInit}
      onNodeClick={onNodeClick}
      onNodeDoubleClick={props.onNodeDoubleClick}
      onNodeContextMenu={onNodeContextMenu}
      onMoveEnd={props.onMoveEnd}
    >
      <TreeLandmarks model={model} onJump={props.onJump} />
      <Controls showInteractive={false} showFitView={false} position="bottom-left" />
      {minimap ? <TreeMinimap model={model} flow={flow} /> : null}
    </ReactFlow>
  );
}
