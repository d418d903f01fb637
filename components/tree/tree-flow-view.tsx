"use client";
/**
 * The React Flow part of the tree canvas: read-only (no dragging, connecting, deleting or
 * box selection), nodes focusable, only visible elements rendered (and for a large layout only
 * the window around the view handed over, flow-window.ts), bands behind the nodes,
 * landmark and map captions in screen space, a toggleable minimap and the "+" / "−" zoom steps. Selection is
 * controlled: `selectedId` marks one node `selected` (an entry inside a collapsed turn marks
 * its turn); React Flow's own selection is off.
 */
import { type NodeMouseHandler, type OnInit, type OnMoveEnd, ReactFlow, useReactFlow, useStore, type Viewport } from "@xyflow/react";
import { useCallback, useMemo, useRef } from "react";
import { isWindowed, windowKeyOf, windowOf, windowRectOf } from "@/components/tree/layout/flow-window";
import type { Landmark } from "@/components/tree/model/landmarks";
import { edgeTypes, nodeTypes } from "@/components/tree/nodes/node-types";
import { PROMPT_CAPTION_ZOOM } from "@/components/tree/layout/map-captions";
import { TreeLandmarks } from "@/components/tree/tree-landmarks";
import { TreeMinimap } from "@/components/tree/tree-minimap";
import { TreeZoomButtons } from "@/components/tree/tree-zoom-buttons";
import type { CanvasNode, TreeEdge } from "@/components/tree/types";
import type { TreeModel } from "@/components/tree/hooks/use-tree-model";
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
  /** Fit view ("−" from the first zoom stop). */
  onFit: () => void;
  /** A "+" / "−" step ended: the semantic-zoom rules apply (use-semantic-zoom.ts applyZoom). */
  onZoomed: (vp: Viewport) => void;
}

/** Below this zoom node texts are unreadable: nodes are drawn as solid marks (tree.css `--far`). */
const FAR_ZOOM = 0.2;
/**
 * Below PROMPT_CAPTION_ZOOM turns are drawn as their marks alone (tree.css `--map`: the size bar,
 * error and edit edges) and the map's captions carry the words (map-captions.ts). Entry nodes
 * keep their text (and their buttons) down to FAR_ZOOM.
 */
const MAP_ZOOM = PROMPT_CAPTION_ZOOM;

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
  const map = useStore((s) => s.transform[2] < MAP_ZOOM);
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

  // "+" / "−" zoom around the selection, else the "you are here" node (tree-zoom-buttons.tsx).
  const latest = useRef({ shown, model });
  latest.current = { shown, model };
  const focus = useCallback(() => {
    const { shown: sel, model: m } = latest.current;
    const here = m.flow.hereId === null ? undefined : m.flow.nodeOf.get(m.flow.hereId);
    const out: { x: number; y: number }[] = [];
    for (const id of [sel, here]) {
      const n = id === undefined ? undefined : m.layout.nodes[m.layout.index.get(id) ?? -1];
      if (n) out.push({ x: n.position.x + (n.width ?? 0) / 2, y: n.position.y + (n.height ?? 0) / 2 });
    }
    return out;
  }, []);

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
      type: e.type ?? "smoothstep",
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
      edgeTypes={edgeTypes}
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
      className={far ? "tree-flow--far tree-flow--map" : map ? "tree-flow--map" : undefined}
      maxZoom={2}
      colorMode={colorScheme}
      onInit={onInit}
      onNodeClick={onNodeClick}
      onNodeDoubleClick={props.onNodeDoubleClick}
      onNodeContextMenu={onNodeContextMenu}
      onMoveEnd={props.onMoveEnd}
    >
      <TreeLandmarks model={model} minimap={minimap} onJump={props.onJump} />
      <TreeZoomButtons bounds={layout.bounds} onFit={props.onFit} onZoomed={props.onZoomed} focus={focus} />
      {minimap ? <TreeMinimap model={model} flow={flow} /> : null}
    </ReactFlow>
  );
}
