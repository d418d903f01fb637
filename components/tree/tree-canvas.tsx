"use client";
/**
 * <TreeCanvas>: the session tree pane (ui.md pane 2, session-engine.md §16) — a React Flow canvas of the
 * session's entries with a toolbar and a Canvas / List switch, inside
 * `<section aria-label="Session tree">`.
 *
 * Props (the session page owns the state; the canvas owns only view state — canvas or list,
 * minimap, unfolded runs, the semantic-zoom level and expanded turns (use-semantic-zoom.ts),
 * the open menu):
 * - `skeleton`: every entry's skeleton row (lib/session-view/tree-skeleton; all branches, file
 *   order, no contents). Pass a stable array (a new identity re-lays out the tree).
 * - `leafId`: the current leaf (null after resetLeaf). When it changes, the canvas scrolls to it.
 * - `labels`: resolved labels (`skeletonLabels`); memoise it.
 * - `searchMatches`: ids matching `search` (the server's §16.3 search); null/undefined while
 *   there is no search. `searchPending`: a newer search is still on its way.
 * - `selectedId` / `onSelect(id | null)`: the selection (session-engine.md §16.3). Ids are entry ids, or
 *   `fold:<first entry id>` while the keyboard rests on a folded run (`isFoldId`,
 *   `entryIdOf`). On mount with no selection the canvas selects the current leaf (or its
 *   nearest visible ancestor); when a filter or search hides the selection it moves to the
 *   nearest visible ancestor, else the last visible row; a selected folded entry is unfolded.
 * - `onActivate(entryId)`: "Continue from here" — the node menu's item, Enter or `C` on a
 *   selected entry (`C` on a turn: after its last entry), a double-click in the list. The page
 *   runs session-engine.md §16.5 ("Already at this point", then the dialog that says what will
 *   happen). A click never moves the leaf: it selects (ui.md "Click looks, actions act").
 * - `onContextAction(action, entryId)`: the entry menu ("⋯" or right-click) and shortcuts:
 *   "inspect" (also "Show summary" on compactions), "continue", "label" (also `L`),
 *   "edit-resend" (user messages only), "fork", "copy-link", pins and the compaction items.
 *   On a turn the entry is its first (the prompt), except "continue": its last.
 * - `centerOn`: an entry to centre and select once (deep link `?entry=ID`); a new value
 *   centres again.
 * - `filter` / `onFilterChange`, `search` / `onSearchChange`: session-engine.md §16.3 filter and query.
 * - `defaultView`: "canvas" (default) or "list".
 *
 * Over SLICED_ABOVE entries the model is built in slices after the first paint
 * (use-sliced-tree-model.ts): the pane shows "Laying out N entries… 40%" until the first model
 * is ready, then mounts the canvas as for any session. Over SERVER_MODEL_MAX entries the server's
 * HTML holds "Laying out N entries…" and the browser mounts the canvas right after hydrating.
 * The pane once its model is built is tree-canvas-body.tsx.
 * - `partial`: `skeleton` is only the tail of the current path (a large session's page while its
 *   whole skeleton streams in): the map of the tail is drawn at once, turns numbered after the
 *   `turnsBefore` prompts above it and no "session start", under a strip that says what is
 *   loading; given the whole skeleton, the tail's map stays until the whole tree's first sliced
 *   build is ready, then the whole tree opens with its own opening view.
 */
import { ReactFlowProvider, useReactFlow } from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import "./tree.css";
import "./nodes/nodes.css";
import { useCallback, useState } from "react";
import { TreeCanvasBody, type TreeCanvasProps } from "@/components/tree/tree-canvas-body";
import { treeLoadingNote } from "@/components/tree/tree-loading-strip";
import { TreePending } from "@/components/tree/tree-pending";
import type { CanvasNode, TreeEdge } from "@/components/tree/types";
import { useSemanticZoom } from "@/components/tree/hooks/use-semantic-zoom";
import { useCanvasModel } from "@/components/tree/hooks/use-sliced-tree-model";
import { DEFAULT_PANE, type Pane } from "@/components/tree/layout/wrap-layout";
import { groupDigits } from "@/lib/text/group-digits";

export function TreeCanvas(props: TreeCanvasProps) {
  return (
    <ReactFlowProvider>
      <TreeCanvasInner {...props} />
    </ReactFlowProvider>
  );
}

const EMPTY: ReadonlySet<string> = new Set();

/** Sessions this small (entries) open in the detail level (one node per entry); larger ones as turns. */
const DETAIL_ON_OPEN_MAX_ENTRIES = 30;

/** The model's inputs that live above the canvas body, so a sliced build can finish before it mounts. */
function TreeCanvasInner(props: TreeCanvasProps) {
  const { skeleton, leafId, labels, filter } = props;
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(EMPTY);
  // The pane's size: the overview wraps a tall tree to fill it (wrap-layout.ts).
  const [pane, setPane] = useState<Pane>(DEFAULT_PANE);
  const [showArchived, setShowArchived] = useState(false);
  const flow = useReactFlow<CanvasNode, TreeEdge>();
  const zoom = useSemanticZoom(flow, props.centerOn || skeleton.length <= DETAIL_ON_OPEN_MAX_ENTRIES ? "detail" : "overview");
  const { zoomLevel, expandedTurns, expandedSpans } = zoom;
  const { model, building, error, provisional } = useCanvasModel({
    skeleton,
    leafId,
    filter,
    matches: props.searchMatches,
    expanded,
    labels,
    stale: props.searchPending,
    zoomLevel,
    expandedTurns,
    expandedSpans,
    // Only the overview wraps to the pane (wrap-layout.ts): a resize leaves the entries view alone.
    pane: zoomLevel === "overview" ? pane : undefined,
    showArchived,
    turnsBefore: props.partial?.turnsBefore,
  });

  const unfold = useCallback((entryIds: readonly string[]) => {
    setExpanded((prev) => {
      if (entryIds.every((id) => prev.has(id))) return prev;
      const next = new Set(prev);
      for (const id of entryIds) next.add(id);
      return next;
    });
  }, []);

  if (error !== null) return <TreePending text={`Could not lay out the tree: ${error}`} alert className={props.className} />;
  if (model === null) {
    // No share before hydration (the browser builds the model at once after it).
    const text = `Laying out ${groupDigits(skeleton.length)} entries…${building === null ? "" : ` ${Math.round(building * 100)}%`}`;
    return <TreePending text={text} share={building} className={props.className} />;
  }
  // The map of the path's tail and the whole tree's are separate mounts of the body: the whole
  // tree opens with its own opening view (the current leaf in view), not the tail's viewport.
  const tail = props.partial !== undefined || provisional;
  return (
    <TreeCanvasBody
      key={tail ? "tail" : "whole"}
      {...props}
      flow={flow}
      zoom={zoom}
      model={model}
      unfold={unfold}
      pane={pane}
      onPane={setPane}
      showArchived={showArchived}
      onShowArchived={setShowArchived}
      loading={treeLoadingNote(props.partial, provisional, building, skeleton.length)}
    />
  );
}
