/**
 * The session view's selection, as a pure reducer (session-engine.md §16.3: the initial selection is the
 * current leaf, kept as the session grows). The selection is the one shared "where am I looking"
 * of the workspace (ui.md "Click looks, actions act"): the map highlights its path, the inspector
 * shows it, the chat scrolls to it. Selecting never moves the leaf; "Continue from here" does, after
 * its dialog.
 *
 * Contract:
 * - `select` sets the selection (null clears it) and where it was made (`origin`: "tree", "chat",
 *   "inspector", …), so a view can tell a selection made elsewhere (to scroll to it) from its own.
 *   Selecting the selected entry again changes nothing (the state is returned as is).
 * - `leaf` reports the current leaf and its entry type. When the leaf moved (a sent message, a
 *   compaction, a navigation) to an entry worth reading — a message, compaction, branch summary
 *   or custom message — the selection follows it (origin "leaf"), unless the user selected something
 *   other than the leaf it last followed. A label or settings entry becoming the leaf leaves the
 *   selection where it is. Reporting the same leaf again changes nothing (the state is returned as is).
 * - `continue` asks to continue from an entry ("Continue from here": the node menu, the keyboard,
 *   the chat's message menu); the workspace shows the dialog while `continueFrom` is set and
 *   `continue-done` clears it. Asking selects the entry too.
 */
export type SelectionOrigin = "tree" | "chat" | "inspector" | "leaf";

export interface SelectionState {
  selectedId: string | null;
  /** Where the current selection was made (null: nothing selected yet). */
  origin: SelectionOrigin | null;
  /** The last leaf reported. */
  seenLeaf: string | null;
  /** The last leaf the selection followed. */
  followed: string | null;
  /** "Continue from here" was asked for this entry: its dialog is open. */
  continueFrom: string | null;
}

export type SelectionAction =
  | { type: "select"; id: string | null; origin?: SelectionOrigin }
  | { type: "leaf"; leafId: string | null; leafType: string | undefined }
  | { type: "continue"; id: string; origin?: SelectionOrigin }
  | { type: "continue-done" };

const READABLE = new Set(["message", "compaction", "branch_summary", "custom_message"]);

export function initialSelection(leafId: string | null): SelectionState {
  return { selectedId: null, origin: null, seenLeaf: leafId, followed: leafId, continueFrom: null };
}

function select(state: SelectionState, id: string | null, origin: SelectionOrigin): SelectionState {
  if (state.selectedId === id) return state;
  return { ...state, selectedId: id, origin: id === null ? null : origin };
}

export function selectionReducer(state: SelectionState, action: SelectionAction): SelectionState {
  switch (action.type) {
    case "select":
      return select(state, action.id, action.origin ?? "tree");
    case "continue": {
      const selected = select(state, action.id, action.origin ?? "tree");
      return selected.continueFrom === action.id ? selected : { ...selected, continueFrom: action.id };
    }
    case "continue-done":
      return state.continueFrom === null ? state : { ...state, continueFrom: null };
    case "leaf": {
      if (action.leafId === state.seenLeaf) return state;
      const follows =
        action.leafType !== undefined && READABLE.has(action.leafType) && (state.selectedId === null || state.selectedId === state.followed);
      return follows
        ? { ...state, selectedId: action.leafId, origin: "leaf", seenLeaf: action.leafId, followed: action.leafId }
        : { ...state, seenLeaf: action.leafId };
    }
  }
}
