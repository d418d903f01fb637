"use client";
/**
 * The React Flow part of the tree canvas: read-only (no dragging, connecting, deleting or
 * box selection), nodes focusable, only visible elements rendered, bands behind the nodes,
 * landmark captions in screen space, a toggleable minimap and zoom Controls. Selection is
 * controlled: `selectedId` marks one node `selected` (an entry inside a collapsed turn marks
 * its turn); React Flow's own selection is off.
 */
import { Controls, type NodeMouseHandler, type OnInit, type OnMoveEnd, ReactFlow, useReactFlow, useStore } from "@xyflow/react";
import { useEffect, useMemo, useState } from "react";
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
  onNodeContextMenu: NodeMouseHandler<CanvasNode>;
  onMoveEnd: OnMoveEnd;
  onJump: (landmark: Landmark) => void;
}

/**
 * A canvas of more nodes than this mounts without its edges, which follow one task later:
 * React Flow indexes every edge when it gets them, and with the nodes in the same task a
 * 10k-turn overview stalled the page (issue #12). Smaller canvases mount whole.
 */
const EDGES_LATER_ABOVE = 2000;
const NO_EDGES: TreeEdge[] = [];

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

  const nodes = useMemo<CanvasNode[]>(() => {
    const shown = selectedId === null ? undefined : (model.flow.nodeOf.get(selectedId) ?? selectedId);
    const at = shown === undefined ? undefined : layout.index.get(shown);
    let tree: CanvasNode[] = layout.nodes;
    if (at !== undefined) {
      tree = layout.nodes.slice();
      tree[at] = { ...layout.nodes[at]!, selected: true } as CanvasNode;
    }
    return bandNodes.length > 0 ? (bandNodes as CanvasNode[]).concat(tree) : tree;
  }, [layout, bandNodes, selectedId, model.flow.nodeOf]);

  const [edgesShown, setEdgesShown] = useState(layout.nodes.length <= EDGES_LATER_ABOVE);
  useEffect(() => {
    if (edgesShown) return;
    const t = setTimeout(() => setEdgesShown(true), 0);
    return () => clearTimeout(t);
  }, [edgesShown]);

  const edges = useMemo<TreeEdge[]>(() => {
    if (!edgesShown) return NO_EDGES;
    return model.edges.map((e) => ({
      ...e,
      type: "smoothstep",
      pathOptions: { borderRadius: 10, offset: 24 },
      className: edgeClass(e),
      zIndex: e.data?.isActive ? 1 : 0,
      focusable: false,
      selectable: false,
      domAttributes: { "aria-hidden": "true" },
    }));
  }, [model.edges, edgesShown]);

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
      onNodeContextMenu={onNodeContextMenu}
      onMoveEnd={props.onMoveEnd}
    >
      <TreeLandmarks model={model} onJump={props.onJump} />
      <Controls showInteractive={false} showFitView={false} position="bottom-left" />
      {minimap ? <TreeMinimap model={model} flow={flow} /> : null}
    </ReactFlow>
  );
}
