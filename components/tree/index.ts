/**
 * The session tree canvas (ui.md pane 2, session-engine.md §16). The session page renders <TreeCanvas>;
 * the pure model (toFlow, layoutTree, folding, navigation) is exported for tests and tools.
 */
export { type BandRect, layoutTree, type TreeLayout } from "@/components/tree/layout/layout";
export { findFoldRuns, isToolStepEntry, MIN_FOLD_RUN } from "@/components/tree/model/fold";
export { compactionRegions } from "@/components/tree/layout/compaction-regions";
export { bodyText, formatTokens } from "@/components/tree/format";
export { type FlowGraph, type ToFlowOptions, toFlow } from "@/components/tree/layout/to-flow";
export { TreeCanvas } from "@/components/tree/tree-canvas";
export type { TreeCanvasProps } from "@/components/tree/tree-canvas-body";
export { TreeList, type TreeListProps } from "@/components/tree/tree-list";
export { moveInRows, moveInTree, reconcileSelection } from "@/components/tree/tree-nav";
export { TreeToolbar, type TreeToolbarProps, type TreeView } from "@/components/tree/tree-toolbar";
export * from "@/components/tree/types";
export { BAND_CAPTION, buildTreeModel, type TreeModel, useTreeModel } from "@/components/tree/hooks/use-tree-model";
export { nodeTypes } from "@/components/tree/nodes/node-types";
