"use client";
/** The Inspector pane's content: the context inspector for the selected turn. */
import { InspectorPanel } from "@/components/inspector/inspector-panel";

export function InspectorSlot({
  sessionId,
  entryId,
  onFocusEntry,
}: {
  sessionId: string;
  entryId: string | null;
  onFocusEntry: (entryId: string) => void;
}) {
  return <InspectorPanel sessionId={sessionId} selectedEntryId={entryId} onFocusEntry={onFocusEntry} />;
}
