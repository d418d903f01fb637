"use client";
/**
 * The workspace's shared selection (selection-reducer.ts), for any pane to read and set without
 * new props: the chat scrolls to `selectedId` when `origin` is not "chat", its message menu
 * offers "Continue from here" through `continueFrom`. The session workspace provides it.
 *
 * - `select(id, origin)`: look at an entry (never moves the leaf).
 * - `continueFrom(entryId, origin)`: "Continue from here" — selects the entry and opens the dialog
 *   that says what will happen (where the new branch starts, what goes into the composer, the
 *   summary choices) before the leaf moves.
 */
import { createContext, useContext } from "react";
import type { SelectionOrigin, SelectionState } from "./selection-reducer";

export interface SessionSelection {
  state: SelectionState;
  select: (id: string | null, origin: SelectionOrigin) => void;
  continueFrom: (entryId: string, origin: SelectionOrigin) => void;
}

const noop = () => {};
const fallback: SessionSelection = {
  state: { selectedId: null, origin: null, seenLeaf: null, followed: null, continueFrom: null },
  select: noop,
  continueFrom: noop,
};

export const SessionSelectionContext = createContext<SessionSelection>(fallback);

export function useSessionSelection(): SessionSelection {
  return useContext(SessionSelectionContext);
}
