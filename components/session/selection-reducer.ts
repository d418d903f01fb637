/**
 * The session view's selection, as a pure reducer (session-engine.md §16.3: the initial selection is the
 * current leaf, kept as the session grows).
 *
 * Contract:
 * - `select` sets the selection (null clears it).
 * - `leaf` reports the current leaf and its entry type. When the leaf moved (a sent message, a
 *   compaction, a navigation) to an entry worth reading — a message, compaction, branch summary
 *   or custom message — the selection follows it, unless the user selected something other than
 *   the leaf it last followed. A label or settings entry becoming the leaf leaves the selection
 *   where it is. Reporting the same leaf again changes nothing (the state is returned as is).
 */
export interface SelectionState {
  selectedId: string | null;
  /** The last leaf reported. */
  seenLeaf: string | null;
  /** The last leaf the selection followed. */
  followed: string | null;
}

export type SelectionAction = { type: "select"; id: string | null } | { type: "leaf"; leafId: string | null; leafType: string | undefined };

const READABLE = new Set(["message", "compaction", "branch_summary", "custom_message"]);

export function initialSelection(leafId: string | null): SelectionState {
  return { selectedId: null, seenLeaf: leafId, followed: leafId };
}

export function selectionReducer(state: SelectionState, action: SelectionAction): SelectionState {
  if (action.type === "select") return state.selectedId === action.id ? state : { ...state, selectedId: action.id };
  if (action.leafId === state.seenLeaf) return state;
  const follows =
    action.leafType !== undefined && READABLE.has(action.leafType) && (state.selectedId === null || state.selectedId === state.followed);
  return follows
    ? { selectedId: action.leafId, seenLeaf: action.leafId, followed: action.leafId }
    : { ...state, seenLeaf: action.leafId };
}
