"use client";
/**
 * The Entry JSON tab: the selected entry exactly as stored, pretty-printed, with a copy button.
 * Reads the session's entries from the workspace's own query (no extra request).
 */
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { sessionDataOptions } from "@/lib/query/session";

export function EntryJson({ sessionId, entryId }: { sessionId: string; entryId: string | null }) {
  const { data, error } = useQuery(sessionDataOptions(sessionId));
  const [status, setStatus] = useState<string>("");
  if (!entryId) return <p className="text-sm text-muted">Select an entry in the chat or on the canvas to see its raw JSON.</p>;
  if (error) return <p role="alert" className="text-sm text-red-700 dark:text-red-300">Could not load the session: {error.message}</p>;
  if (!data) return <p className="text-sm text-muted" role="status">Loading entry…</p>;
  const entry = data.entries.find((e) => e.id === entryId);
  if (!entry) return <p className="text-sm text-muted">Entry {entryId} is not in this session.</p>;
  const json = JSON.stringify(entry, null, 2);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(json);
      setStatus("Copied");
    } catch {
      setStatus("Could not copy: select the text and copy it instead");
    }
  };

  return (
    <div className="space-y-1">
      <div className="flex items-center gap-2">
        <button type="button" className="rounded border border-line px-2 py-0.5 text-xs" onClick={() => void copy()}>
          Copy JSON
        </button>
        <span role="status" className="text-xs text-muted">
          {status}
        </span>
      </div>
      <figure>
        <figcaption className="sr-only">Raw JSON of entry {entryId}</figcaption>
        <pre className="max-h-[32rem] overflow-auto rounded bg-panel p-2 font-mono text-xs">{json}</pre>
      </figure>
    </div>
  );
}
