"use client";
/**
 * The home page's first start (docs/ui.md "Pages", `/`): with no sessions yet, the agent folders
 * found on this machine (GET /api/discovery: names and sizes only, nothing read) with their
 * session files and bytes. The user ticks folders and presses "Sync": the consent is remembered
 * (POST /api/discovery: the folders become allowed roots), then the folders are synced (POST
 * /api/sync) with the progress and the run's counts, and the list fills.
 */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { followSync } from "@/components/sync/follow-sync";
import { getJson, keys } from "@/lib/query/keys";
import { readErrorMessage } from "@/lib/text/error-text";
import { formatBytes } from "@/lib/text/byte-size";
import { formatCount } from "./format";

interface AgentFolder {
  agent: string;
  label: string;
  path: string;
  files: number;
  bytes: number;
  syncable: boolean;
  allowed: boolean;
}

export function FirstStart() {
  const qc = useQueryClient();
  const found = useQuery({ queryKey: ["discovery"], queryFn: ({ signal }) => getJson<{ folders: AgentFolder[] }>("/api/discovery", { signal }) });
  const [ticked, setTicked] = useState<Set<string>>(new Set());
  const [status, setStatus] = useState<string | null>(null);
  const [running, setRunning] = useState(false);
  const folders = found.data?.folders ?? [];
  if (folders.length === 0) return null;

  const sync = async () => {
    const list = [...ticked];
    setRunning(true);
    setStatus("Allowing the folders…");
    try {
      const res = await fetch("/api/discovery", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ folders: list }) });
      if (!res.ok) throw new Error(await readErrorMessage(res));
      let files = 0;
      await followSync({
        folders: list,
        watch: false,
        signal: new AbortController().signal,
        onEvent: (e) => {
          if (e.type === "start") files = e.files;
          else if (e.type === "progress") setStatus(`Syncing file ${e.index + 1} of ${files}: ${e.file}`);
          else if (e.type === "run") setStatus(`Synced: ${e.counts.imported} imported, ${e.counts.appended} appended, ${e.counts.unchanged} unchanged${e.counts.failed ? `, ${e.counts.failed} failed` : ""}`);
          else if (e.type === "error") setStatus(`The sync failed: ${e.message}`);
        },
      });
    } catch (error) {
      setStatus(`The sync failed: ${(error as Error).message}`);
    } finally {
      setRunning(false);
      void qc.invalidateQueries({ queryKey: keys.sessions() });
      void found.refetch();
    }
  };

  return (
    <section aria-label="Agent folders on this machine" className="flex flex-col gap-2 rounded border border-line p-3">
      <h2 className="font-semibold">Agent folders on this machine</h2>
      <p className="text-sm text-muted">Tick the folders Arbor may read and keep in sync. Nothing is read until you do.</p>
      <ul className="flex flex-col gap-1">
        {folders.map((f) => (
          <li key={f.path}>
            <label className="flex items-baseline gap-2 text-sm">
              <input
                type="checkbox"
                disabled={!f.syncable || running}
                checked={ticked.has(f.path)}
                onChange={(e) => {
                  const next = new Set(ticked);
                  if (e.target.checked) next.add(f.path);
                  else next.delete(f.path);
                  setTicked(next);
                }}
              />
              <span className="font-medium">{f.label}</span>
              <span className="font-mono text-xs">{f.path}</span>
              <span className="text-muted">
                {formatCount(f.files, "session file", "session files")}, {formatBytes(f.bytes)}
                {f.allowed ? " · allowed" : ""}
                {f.syncable ? "" : " · import its files instead (folder sync reads .jsonl files)"}
              </span>
            </label>
          </li>
        ))}
      </ul>
      <div>
        <button type="button" disabled={ticked.size === 0 || running} onClick={() => void sync()} className="rounded border border-line px-2 py-1 text-sm disabled:opacity-50">
          Sync the ticked folders
        </button>
      </div>
      <p aria-live="polite" className="text-sm">
        {status}
      </p>
    </section>
  );
}
