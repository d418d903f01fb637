"use client";
/**
 * The "Sync folder" page's panel (docs/ui.md "Pages"): folders to sync (one a line, inside
 * ARBOR_ALLOWED_ROOTS), "Keep watching", the Sync button; while it runs, the overall progress
 * (files, bytes, sessions, time left: sync-progress.ts) and Cancel (Stop watching when watching);
 * a cancelled sync can be resumed (Resume: the files it finished are skipped, nothing is
 * imported twice); then one line per file that changed, with a link to its session. Unchanged
 * files are only counted.
 */
import Link from "next/link";
import { useRef, useState } from "react";
import type { SyncStreamEvent } from "@/lib/types/sync-events";
import { followSync } from "./follow-sync";
import { advance, type OverallProgress } from "./sync-progress";
import { SyncProgressBar } from "./sync-progress-bar";

type FileLine = { key: string; file: string; text: string; sessionId: string | null; failed: boolean };

const button = "rounded border border-line px-2 py-0.5 text-sm hover:bg-[var(--panel)] focus-visible:outline-2 focus-visible:outline-[var(--color-accent)]";
const primary = "rounded bg-[var(--color-accent)] px-3 py-1 text-sm font-medium text-white hover:opacity-90 disabled:opacity-50 dark:text-black";

function sessionOf(e: Extract<SyncStreamEvent, { type: "file" }>): string | null {
  return "sessionId" in e.outcome ? e.outcome.sessionId : null;
}

export function SyncPanel({ roots }: { roots: string[] }) {
  const [folders, setFolders] = useState(roots[0] ?? "");
  const [watch, setWatch] = useState(false);
  const [running, setRunning] = useState<null | { watching: boolean }>(null);
  const [progress, setProgress] = useState<OverallProgress | null>(null);
  const [current, setCurrent] = useState<string | null>(null);
  const [cancelled, setCancelled] = useState(false);
  const [lines, setLines] = useState<FileLine[]>([]);
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const abort = useRef<AbortController | null>(null);

  const onEvent = (e: SyncStreamEvent) => {
    const now = Date.now();
    setProgress((p) => advance(p, e, now));
    if (e.type === "start") {
      // The list shows the run the summary below speaks of: a new run (a sync, or a change a
      // watch saw) starts it afresh.
      setLines([]);
    } else if (e.type === "progress") setCurrent(e.file);
    else if (e.type === "file") {
      setCurrent(null);
      if (e.outcome.kind === "unchanged") return;
      const line: FileLine = { key: `${e.file}:${Date.now()}:${Math.random()}`, file: e.file, text: e.text, sessionId: sessionOf(e), failed: e.outcome.kind === "failed" };
      setLines((all) => [line, ...all].slice(0, 500));
    } else if (e.type === "run") {
      const c = e.counts;
      setStatus(
        `${e.kind === "initial" ? "Synced" : "Changes synced"}: ${c.imported} imported, ${c.appended} appended, ${c.rewritten} new versions, ${c.unchanged} unchanged` +
          `${c.gone ? `, ${c.gone} deleted from the folder (kept in Arbor)` : ""}${c.failed ? `, ${c.failed} failed` : ""}${e.watching ? " — watching for changes" : ""}`,
      );
    } else setError(e.message);
  };

  const start = async () => {
    const list = folders.split("\n").map((f) => f.trim()).filter((f) => f !== "");
    if (list.length === 0) {
      setError("Name a folder to sync");
      return;
    }
    const controller = new AbortController();
    abort.current = controller;
    setError(null);
    setStatus(null);
    setCancelled(false);
    setRunning({ watching: watch });
    try {
      await followSync({ folders: list, watch, signal: controller.signal, onEvent });
    } catch (e) {
      if ((e as Error).name === "AbortError") {
        setStatus((s) => (watch ? `${s ?? ""} — stopped watching` : "Sync cancelled — the file being imported was not saved; files synced before it are. Resume skips them."));
        setCancelled(!watch);
      } else setError(`The sync failed: ${(e as Error).message}`);
    } finally {
      abort.current = null;
      setRunning(null);
      setProgress(null);
      setCurrent(null);
    }
  };

  return (
    <section aria-label="Sync folder" className="mx-auto flex max-w-3xl flex-col gap-3 p-4">
      <h1 className="text-lg font-semibold">Sync folder</h1>
      <p className="text-sm text-muted">
        Imports the session files (pi, Claude Code, Codex CLI) in these folders and keeps them in sync: new files are imported, new lines of
        files imported before are appended, and a file that was rewritten is imported again as a new version. Files deleted from a folder
        stay in Arbor.
      </p>
      <label className="flex flex-col gap-1 text-sm">
        <span>Folders (one a line)</span>
        <textarea
          className="min-h-16 rounded border border-line bg-transparent p-2 font-mono text-sm"
          value={folders}
          onChange={(e) => setFolders(e.target.value)}
          disabled={running !== null}
          aria-describedby="sync-roots"
        />
      </label>
      <p id="sync-roots" className="text-xs text-muted">
        {roots.length > 0 ? `Allowed: folders inside ${roots.join(", ")} (ARBOR_ALLOWED_ROOTS)` : "ARBOR_ALLOWED_ROOTS is not set: no folder can be synced from here (the CLI can: npm run cli -- sync DIR)"}
      </p>
      <div className="flex items-center gap-3">
        <label className="flex items-center gap-1 text-sm">
          <input type="checkbox" checked={watch} onChange={(e) => setWatch(e.target.checked)} disabled={running !== null} />
          Keep watching
        </label>
        <button type="button" className={primary} onClick={() => void start()} disabled={running !== null}>
          Sync
        </button>
        {running && (
          <button type="button" className={button} onClick={() => abort.current?.abort()}>
            {running.watching ? "Stop watching" : "Cancel"}
          </button>
        )}
        {!running && cancelled && (
          <button type="button" className={button} onClick={() => void start()}>
            Resume
          </button>
        )}
      </div>
      {running && progress && <SyncProgressBar progress={progress} file={current} />}
      {running && !progress && !status && <p className="text-sm text-muted">Syncing…</p>}
      <div aria-live="polite">
        {status && <p className="text-sm">{status}</p>}
        {error && <p className="text-sm text-red-700 dark:text-red-300">{error}</p>}
      </div>
      {lines.length > 0 && (
        <ul aria-label="Synced files" className="divide-y divide-[var(--border)] rounded border border-line">
          {lines.map((l) => (
            <li key={l.key} className="px-3 py-1.5 text-sm">
              <span className="font-mono text-xs">{l.file}</span>
              <span className={l.failed ? "block text-red-700 dark:text-red-300" : "block"}>
                {l.text}{" "}
                {l.sessionId && (
                  <Link href={`/sessions/${encodeURIComponent(l.sessionId)}`} className="font-medium text-[var(--color-accent)] underline">
                    Open
                  </Link>
                )}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
