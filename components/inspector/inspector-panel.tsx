"use client";
/**
 * The Inspector pane's content (ui.md): tabs "Context" (what the model saw for the selected turn,
 * or the next-turn preview), "Entry JSON" (the selected entry as stored) and "Calls" (the recorded
 * model calls; choosing one shows it in Context), and "Files" (the session's workspace, see
 * components/files). Mounted inside the workspace's "Context inspector" region. `onFocusEntry`
 * centres the canvas on an entry.
 *
 * Tabs follow the WAI-ARIA tabs pattern: arrow keys move between tabs, one tab stop.
 */
import { useQuery } from "@tanstack/react-query";
import { type KeyboardEvent, useCallback, useId, useMemo, useRef, useState } from "react";
import { FilePanel } from "@/components/files/file-panel";
import { StatusToast, type Toast } from "@/components/session/status-toast";
import { type InspectTarget, modelCallsOptions } from "@/lib/query/inspector";
import { sessionDataOptions, sessionView } from "@/lib/query/session";
import { CallsList } from "./calls-list";
import { CompactionReviewPanel } from "./compaction-review";
import { ContextView } from "./context-view";
import { EntryJson } from "./entry-json";
import { resolveSelection } from "./selection";

const TABS = ["Context", "Entry JSON", "Calls", "Files"] as const;
const NO_ROWS: never[] = [];
type Tab = (typeof TABS)[number];

export interface InspectorPanelProps {
  sessionId: string;
  selectedEntryId: string | null;
  onFocusEntry(entryId: string): void;
  /**
   * A large session's tree is still streaming in: the turn view is asked for after it. Building
   * a view of a long session the first time takes the server a while (its index, the diff), and
   * the tree and the chat come first.
   */
  waitForTree?: boolean;
}

export function InspectorPanel({ sessionId, selectedEntryId, onFocusEntry, waitForTree = false }: InspectorPanelProps) {
  const [tab, setTab] = useState<Tab>("Context");
  const [callId, setCallId] = useState<string | null>(null);
  const [preview, setPreview] = useState(false);
  const [toast, setToast] = useState<Toast | null>(null);
  const closeToast = useCallback(() => setToast(null), []);
  const tabRefs = useRef<(HTMLButtonElement | null)[]>([]);
  const baseId = useId();

  // A new selection shows that turn again (a call chosen in the Calls tab no longer applies).
  // Reset during render, React's pattern for state derived from a changed prop.
  const [shownFor, setShownFor] = useState(selectedEntryId);
  if (shownFor !== selectedEntryId) {
    setShownFor(selectedEntryId);
    setCallId(null);
    setPreview(false);
  }

  const session = useQuery(sessionDataOptions(sessionId));
  const calls = useQuery(modelCallsOptions(sessionId));
  // Per version of the session (not per selection): the rows, their index and the active path's
  // ids, the last made only when a selection needs it (a 100k-entry path is a 100k-entry set,
  // built in the render that adopts the streamed tree otherwise).
  const shape = useMemo(() => {
    const view = session.data ? sessionView(session.data) : undefined;
    let pathIds: Set<string> | undefined;
    const activePath = {
      has: (id: string) => {
        pathIds ??= new Set(view?.path.map((e) => e.id) ?? []);
        return pathIds.has(id);
      },
    };
    return { rows: view?.rows ?? NO_ROWS, byId: view?.byId, activePath, leafId: view?.path.at(-1)?.id ?? null };
  }, [session.data]);
  const selection = useMemo(() => {
    const { rows, byId, activePath, leafId } = shape;
    const resolved = resolveSelection({ entryId: selectedEntryId, entries: rows, byId, activePath, calls: calls.data, leafId });
    // A compaction also gets its fact check, undo and comparison (compaction-review.tsx).
    return { ...resolved, isCompaction: selectedEntryId !== null && shape.byId?.get(selectedEntryId)?.type === "compaction" };
  }, [shape, calls.data, selectedEntryId]);

  const target: InspectTarget | null = preview
    ? { kind: "preview" }
    : callId
      ? { kind: "call", callId }
      : "target" in selection
        ? selection.target
        : null;

  const onTabKey = (e: KeyboardEvent<HTMLButtonElement>, i: number) => {
    const delta = e.key === "ArrowRight" ? 1 : e.key === "ArrowLeft" ? -1 : 0;
    const to = e.key === "Home" ? 0 : e.key === "End" ? TABS.length - 1 : (i + delta + TABS.length) % TABS.length;
    if (delta === 0 && e.key !== "Home" && e.key !== "End") return;
    e.preventDefault();
    setTab(TABS[to]!);
    tabRefs.current[to]?.focus();
  };

  const turnView = (
    <>
      <div className="flex flex-wrap items-center gap-2">
        <button
          type="button"
          aria-pressed={preview}
          onClick={() => setPreview((p) => !p)}
          className={`rounded border border-line px-2 py-0.5 text-xs ${preview ? "bg-panel font-semibold" : ""}`}
        >
          Next turn preview
        </button>
        {callId && !preview ? (
          <button type="button" className="text-xs underline" onClick={() => setCallId(null)}>
            Back to the selected entry
          </button>
        ) : null}
        {!preview && !callId && "note" in selection && selection.note ? <span className="text-xs text-muted">{selection.note}</span> : null}
      </div>
      {target ? (
        <ContextView sessionId={sessionId} target={target} onFocusEntry={onFocusEntry} wait={waitForTree} />
      ) : (
        <p className="text-sm text-muted">{"hint" in selection ? selection.hint : ""}</p>
      )}
    </>
  );

  return (
    <div className="flex h-full min-h-0 flex-col">
      <div role="tablist" aria-label="Inspector views" className="flex gap-1 border-b border-line px-2 text-sm">
        {TABS.map((t, i) => (
          <button
            key={t}
            ref={(el) => {
              tabRefs.current[i] = el;
            }}
            id={`${baseId}-tab-${i}`}
            type="button"
            role="tab"
            aria-selected={tab === t}
            aria-controls={`${baseId}-panel`}
            tabIndex={tab === t ? 0 : -1}
            onKeyDown={(e) => onTabKey(e, i)}
            onClick={() => setTab(t)}
            className={`px-2 py-1 ${tab === t ? "border-b-2 border-[var(--color-accent)] font-semibold" : "text-muted"}`}
          >
            {t}
          </button>
        ))}
      </div>
      <div
        role="tabpanel"
        id={`${baseId}-panel`}
        aria-labelledby={`${baseId}-tab-${TABS.indexOf(tab)}`}
        className="min-h-0 flex-1 overflow-auto p-2"
      >
        {tab === "Context" && (
          <div className="space-y-2">
            {selectedEntryId && selection.isCompaction ? (
              <CompactionReviewPanel sessionId={sessionId} entryId={selectedEntryId} onFocusEntry={onFocusEntry} onToast={setToast}>
                {turnView}
              </CompactionReviewPanel>
            ) : (
              turnView
            )}
          </div>
        )}
        {tab === "Entry JSON" && <EntryJson sessionId={sessionId} entryId={selectedEntryId} />}
        {tab === "Files" && <FilePanel sessionId={sessionId} />}
        {tab === "Calls" && (
          <CallsList
            sessionId={sessionId}
            selectedCallId={callId}
            onSelect={(id) => {
              setCallId(id);
              setPreview(false);
              setTab("Context");
            }}
          />
        )}
      </div>
      {toast ? <StatusToast toast={toast} onDone={closeToast} /> : null}
    </div>
  );
}
