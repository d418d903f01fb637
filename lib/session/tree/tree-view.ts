/**
 * Tree navigator view model (session-engine.md §16.1–16.3), shared by the CLI `tree` command and the web
 * canvas and row list. Pure: no network, disk or database access.
 *
 * - tree-row-text: row text (§16.2) and searchable text (§16.3);
 * - tree-filter: hidden assistants, filters, search, footer (§16.3);
 * - tree-flatten: ordering, indentation, active path, rows (§16.1);
 * - tree-graph: canvas graph edges and selection rules (§16.3).
 */
export {
  emptyText,
  FILTERS,
  filterTag,
  formatFooter,
  isEntryVisible,
  isHiddenAssistant,
  isTreeFilter,
  matchesSearch,
  NO_ENTRIES_FOUND,
  NO_ENTRIES_IN_SESSION,
  nextFilter,
  parseSearch,
  passesFilter,
  type TreeFilter,
} from "@/lib/session/tree/tree-filter";
export {
  applyVisibility,
  flattenTree,
  type TreeNodeLike,
  type TreeRow,
  type TreeViewOptions,
  visibleRows,
} from "@/lib/session/tree/tree-flatten";
export {
  graphFromRows,
  initialSelection,
  nearestVisibleAncestors,
  resolveSelection,
  type VisibleGraph,
  type VisibleGraphEdge,
  type VisibleGraphNode,
  visibleGraph,
  visibleIndexOf,
} from "@/lib/session/tree/tree-graph";
export {
  buildToolCallIndex,
  contentText,
  displayText,
  normalizeRowText,
  type RowTextContext,
  rowText,
  searchableText,
  toolCallText,
} from "@/lib/session/tree/tree-row-text";
