"use client";
/**
 * The Calls tab: every recorded model call of the session, oldest first — kind, model, time,
 * duration, tokens, stop reason or error. Choosing one shows it in the Context tab.
 */
import { useQuery } from "@tanstack/react-query";
import { modelCallsOptions } from "@/lib/query/inspector";
import { CALL_KIND_LABELS, formatDuration, formatNumber, formatTime } from "./format";

export function CallsList({
  sessionId,
  selectedCallId,
  onSelect,
}: {
  sessionId: string;
  selectedCallId: string | null;
  onSelect(callId: string): void;
}) {
  const { data, error, isPending } = useQuery(modelCallsOptions(sessionId));
  if (isPending) return <p className="text-sm text-muted" role="status">Loading recorded calls…</p>;
  if (error) return <p role="alert" className="text-sm text-red-700 dark:text-red-300">Could not load the calls: {error.message}</p>;
  if (data.length === 0) {
    return (
      <p className="text-sm text-muted">
        No recorded calls: this session was imported or has not talked to a model here yet. Select an assistant message to see its
        reconstructed context.
      </p>
    );
  }
  return (
    <table className="w-full text-left text-xs">
      <caption className="sr-only">Recorded model calls, oldest first</caption>
      <thead>
        <tr className="border-b border-line text-muted">
          <th scope="col" className="py-1 pr-2">Kind</th>
          <th scope="col" className="pr-2">Model</th>
          <th scope="col" className="pr-2">Time</th>
          <th scope="col" className="pr-2">Duration</th>
          <th scope="col" className="pr-2">Prompt tokens</th>
          <th scope="col">Result</th>
        </tr>
      </thead>
      <tbody>
        {data.map((c) => (
          <tr key={c.id} className={`border-b border-line ${c.id === selectedCallId ? "bg-panel" : ""}`}>
            <td className="py-1 pr-2">
              <button
                type="button"
                className="underline"
                aria-current={c.id === selectedCallId ? "true" : undefined}
                aria-label={`Show call ${c.seq + 1} (${CALL_KIND_LABELS[c.kind]}) in the Context tab`}
                onClick={() => onSelect(c.id)}
              >
                {CALL_KIND_LABELS[c.kind]}
              </button>
            </td>
            <td className="pr-2 font-mono">{c.model}</td>
            <td className="pr-2">{formatTime(c.startedAt)}</td>
            <td className="pr-2">{formatDuration(c.durationMs)}</td>
            <td className="pr-2">
              {c.promptTokens === null ? "—" : formatNumber(c.promptTokens)}
              <span className="text-muted"> · {c.messageCount} msgs</span>
            </td>
            <td>{c.errorMessage ? <span className="text-red-700 dark:text-red-300">error: {c.errorMessage}</span> : c.stopReason}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
