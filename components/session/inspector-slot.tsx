"use client";
/** The Inspector pane's content: the context inspector for the selected turn. */
import { InspectorPanel } from "@/components/inspector/inspector-panel";

export function InspectorSlot({
  sessionId,
  entryId,
  onFocusEntry,
  waitForTree,
}: {
  sessionId: string;
  entryId: string | null;
  onFocusEntry: (entryId: string) => void;
  /** A large session's tree is still streaming: the turn view waits (see InspectorPanelProps). */
  waitForTree: boolean;
}) {
  return <InspectorPanel sessionId={sessionId} selectedEntryId={entryId} onFocusEntry={onFocusEntry} waitForTree={waitForTree} />;
}
