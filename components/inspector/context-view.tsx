"use client";
/**
 * The Context tab: for one turn (recorded, reconstructed or the next-turn preview) its notes,
 * what kind of call it was, the context-window bar, the diff against the previous turn, then the
 * messages sent (a collapsible list of its own height). Loading and errors are said in words where the view is. A long turn's further
 * messages load from the same target (`source`), page by page (message-list.tsx).
 */
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { type InspectTarget, inspectTurnOptions } from "@/lib/query/inspector";
import type { TurnView } from "@/lib/types/inspector";
import { DiffView } from "./diff-view";
import { CALL_KIND_LABELS, formatDuration, formatTime, formatTokens } from "./format";
import { MessageList, type MessageSource } from "./message-list";
import { TokenBar } from "./token-bar";

/** The longest a turn view waits for a large session's tree to stream in. */
const WAIT_AT_MOST_MS = 20_000;

function Header({ turn }: { turn: TurnView }) {
  const r = turn.response;
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-3 text-xs">
      <dt className="text-muted">Call</dt>
      <dd>
        {CALL_KIND_LABELS[turn.kind]}
        {turn.origin === "recorded" ? " (recorded)" : turn.origin === "reconstructed" ? " (reconstructed)" : " (preview)"}
      </dd>
      <dt className="text-muted">Model</dt>
      <dd className="font-mono">{turn.model ?? "—"}</dd>
      {turn.origin !== "preview" && (
        <>
          <dt className="text-muted">Started</dt>
          <dd>
            {formatTime(turn.startedAt)} · {formatDuration(turn.durationMs)}
          </dd>
          <dt className="text-muted">Result</dt>
          <dd>
            {r ? r.stopReason : "—"}
            {r?.usage ? ` · ${formatTokens(r.usage.output)} out` : ""}
            {r?.errorMessage ? <span className="text-red-700 dark:text-red-300"> · {r.errorMessage}</span> : null}
          </dd>
        </>
      )}
      {Object.keys(turn.settings).length > 0 && (
        <>
          <dt className="text-muted">Settings</dt>
          <dd className="font-mono">
            {Object.entries(turn.settings)
              .map(([k, v]) => `${k}: ${typeof v === "string" ? v : JSON.stringify(v)}`)
              .join(", ")}
          </dd>
        </>
      )}
    </dl>
  );
}

export function TurnDetails({ turn, onFocusEntry, source }: { turn: TurnView; onFocusEntry(entryId: string): void; source?: MessageSource }) {
  return (
    <div className="space-y-3">
      {turn.notes.length > 0 && (
        <ul className="space-y-0.5">
          {turn.notes.map((n) => (
            <li key={n} role="note" className="rounded border border-line bg-panel px-2 py-1 text-xs">
              {n}
            </li>
          ))}
        </ul>
      )}
      <Header turn={turn} />
      <TokenBar turn={turn} />
      {/* What changed and what was answered first; the long list of messages after (ui.md "Inspector"). */}
      <DiffView turn={turn} onFocusEntry={onFocusEntry} />
      {turn.kind !== "chat" && turn.response?.text ? (
        <details open>
          <summary className="cursor-pointer text-sm font-medium">Response text</summary>
          <pre className="mt-1 max-h-96 overflow-auto whitespace-pre-wrap break-words rounded bg-panel p-2 font-mono text-xs">{turn.response.text}</pre>
        </details>
      ) : null}
      <MessageList turn={turn} onFocusEntry={onFocusEntry} {...(source ? { source } : {})} />
    </div>
  );
}

export function ContextView({
  sessionId,
  target,
  onFocusEntry,
  wait = false,
}: {
  sessionId: string;
  target: InspectTarget;
  onFocusEntry(entryId: string): void;
  /**
   * Not yet: the view is asked for once this is false (InspectorPanelProps.waitForTree), or after
   * WAIT_AT_MOST_MS whatever happens (a tree stream that stalls must not leave the pane empty).
   */
  wait?: boolean;
}) {
  const [waitedLongEnough, setWaitedLongEnough] = useState(false);
  useEffect(() => {
    if (!wait) return;
    const timer = setTimeout(() => setWaitedLongEnough(true), WAIT_AT_MOST_MS);
    return () => clearTimeout(timer);
  }, [wait]);
  const { data, error, isPending } = useQuery({ ...inspectTurnOptions(sessionId, target), enabled: !wait || waitedLongEnough });
  if (isPending) return <p className="text-sm text-muted" role="status">Loading what the model saw…</p>;
  if (error) return <p role="alert" className="text-sm text-red-700 dark:text-red-300">Could not load this turn: {error.message}</p>;
  return <TurnDetails turn={data} onFocusEntry={onFocusEntry} source={{ sessionId, target }} />;
}
