"use client";
/**
 * The home page's first start (docs/ui.md "Pages", `/`): with no sessions yet, the agent folders
 * found on this machine (GET /api/discovery: names and sizes only, nothing read) with their
 * session files and bytes. The user ticks folders and presses "Sync": the consent is remembered
 * (POST /api/discovery: the folders become allowed roots), then the folders are synced (POST
 * /api/sync) with the overall progress (files, bytes, sessions, time left) and the run's counts,
 * and the list fills as sessions arrive (the list's live updates). Cancel stops the sync; Resume
 * runs it again, skipping what is done (nothing is imported twice). From then on the app keeps
 * the folders in sync by itself (lib/sync/app-sync.ts). `onStarted` tells the list to keep the
 * panel while sessions arrive.
 */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { followSync } from "@/components/sync/follow-sync";
import { advance, type OverallProgress } from "@/components/sync/sync-progress";
import { SyncProgressBar } from "@/components/sync/sync-progress-bar";
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

export function FirstStart({ onStarted }: { onStarted?: () => void }) {
  const qc = useQueryClient();
  const found = useQuery({ queryKey: ["discovery"], queryFn: ({ signal }) => getJson<{ folders: AgentFolder[] }>("/api/discovery", { signal }) });
  const [ticked, setTicked] = useState<Set<string>>(new Set());
  const [status, setStatus] = useState<string | null>(null);
  const [running, setRunning] = useState(false);
  const [progress, setProgress] = useState<OverallProgress | null>(null);
  const [cancelled, setCancelled] = useState(false);
  const abort = useRef<AbortController | null>(null);
  const folders = found.data?.folders ?? [];
  if (folders.length === 0) return null;

  const sync = async () => {
    const list = [...ticked];
    const controller = new AbortController();
    abort.current = controller;
    onStarted?.();
    setRunning(true);
    setCancelled(false);
    setProgress(null);
    setStatus("Allowing the folders…");
    try {
      const res = await fetch("/api/discovery", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ folders: list }) });
      if (!res.ok) throw new Error(await readErrorMessage(res));
      setStatus(null);
      await followSync({
        folders: list,
        watch: false,
        signal: controller.signal,
        onEvent: (e) => {
          const now = Date.now();
          setProgress((p) => advance(p, e, now));
          if (e.type === "run") {
            const c = e.counts;
            setStatus(`Synced: ${c.imported} imported, ${c.appended} appended, ${c.unchanged} unchanged${c.failed ? `, ${c.failed} failed` : ""}. Arbor keeps these folders in sync from now on.`);
          } else if (e.type === "error") setStatus(`The sync failed: ${e.message}`);
        },
      });
    } catch (error) {
      if ((error as Error).name === "AbortError") {
        setStatus("Sync cancelled: the sessions synced so far stay; Resume continues where it stopped.");
        setCancelled(true);
      } else setStatus(`The sync failed: ${(error as Error).message}`);
    } finally {
      abort.current = null;
      setRunning(false);
      setProgress(null);
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
              </span>
            </label>
          </li>
        ))}
      </ul>
      <div>
        <button type="button" disabled={ticked.size === 0 || running} onClick={() => void sync()} className="rounded border border-line px-2 py-1 text-sm disabled:opacity-50">
          {cancelled ? "Resume" : "Sync the ticked folders"}
        </button>
        {running && (
          <button type="button" onClick={() => abort.current?.abort()} className="ml-2 rounded border border-line px-2 py-1 text-sm">
            Cancel
          </button>
        )}
      </div>
      {running && progress && <SyncProgressBar progress={progress} />}
      <p aria-live="polite" className="text-sm">
        {status}
      </p>
    </section>
  );
}
