"use client";
/**
 * The Entry JSON tab: the selected entry exactly as stored, pretty-printed, with a copy button.
 * The copy masks the secrets found in the entry (docs/secrets.md; the session's findings,
 * lib/secrets/mask.ts): a copy leaves Arbor.
 * The page ships no entry contents: the entry loads on demand (its per-entry query, shared with
 * the chat, so an entry the chat shows costs no request).
 */
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { formatCount } from "@/components/sessions/format";
import { entryOptions } from "@/lib/query/entries";
import { secretsOptions } from "@/lib/query/secrets";
import { maskEntryWithFindings } from "@/lib/secrets/mask";

export function EntryJson({ sessionId, entryId }: { sessionId: string; entryId: string | null }) {
  if (!entryId) return <p className="text-sm text-muted">Select an entry in the chat or on the canvas to see its raw JSON.</p>;
  return <LoadedEntryJson sessionId={sessionId} entryId={entryId} />;
}

function LoadedEntryJson({ sessionId, entryId }: { sessionId: string; entryId: string }) {
  const { data: entry, error } = useQuery(entryOptions(sessionId, entryId));
  const { data: secrets } = useQuery(secretsOptions(sessionId));
  const [status, setStatus] = useState<string>("");
  if (error) return <p className="text-sm text-muted">{error.message.startsWith("Entry ") ? error.message : `Could not load entry ${entryId}: ${error.message}`}</p>;
  if (!entry) return <p className="text-sm text-muted" role="status">Loading entry…</p>;
  const json = JSON.stringify(entry, null, 2);

  const findings = secrets?.findings.filter((f) => f.entryId === entryId) ?? [];

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(findings.length ? JSON.stringify(maskEntryWithFindings(entry, findings), null, 2) : json);
      setStatus(findings.length ? `Copied, ${formatCount(findings.length, "secret", "secrets")} masked` : "Copied");
    } catch {
      setStatus("Could not copy: select the text and copy it instead");
    }
  };

  return (
    <div className="space-y-1">
      <div className="flex items-center gap-2">
        {/* Not before the session's findings are known: the copy must be masked. */}
        <button type="button" className="rounded border border-line px-2 py-0.5 text-xs disabled:opacity-50" disabled={!secrets} onClick={() => void copy()}>
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
