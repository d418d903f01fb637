"use client";
/**
 * The Inspector pane's content: the context inspector for the selected turn.
 *
 * In a Suspense boundary of its own, memoised (its props are stable between selections): when
 * the page hydrates, React leaves the inspector for a time-sliced pass after the page's first
 * task instead of rendering it inside that task (docs/benchmarks.md: no main-thread task over 200 ms), and the
 * workspace re-rendering meanwhile (a large session's tree streaming in) does not make it
 * hydrate at once.
 */
import { memo, Suspense } from "react";
import { InspectorPanel } from "@/components/inspector/inspector-panel";

export const InspectorSlot = memo(function InspectorSlot({
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
  return (
    <Suspense fallback={null}>
      <InspectorPanel sessionId={sessionId} selectedEntryId={entryId} onFocusEntry={onFocusEntry} waitForTree={waitForTree} />
    </Suspense>
  );
});
