/**
 * Overall progress of a folder sync from its events (lib/types/sync-events.ts): files and bytes
 * done of the run's total, sessions imported or updated, and an estimate of the time left.
 * Pure: the Sync page and the first start's panel fold the events with `advance`.
 *
 * The estimate divides the bytes still to sync by the rate of the files that needed work:
 * unchanged files (a resumed sync skips what an earlier run finished) take only a look, so
 * counting their bytes would promise too early an end. No estimate before a second of work.
 */
import type { SyncStreamEvent } from "@/lib/types/sync-events";
import { formatBytes } from "@/lib/text/byte-size";

export interface OverallProgress {
  files: number;
  totalBytes: number;
  filesDone: number;
  bytesDone: number;
  /** Bytes of the file being imported read so far. */
  currentBytes: number;
  /** Bytes of the finished files that were imported, appended or failed (not unchanged). */
  workBytes: number;
  imported: number;
  updated: number;
  failed: number;
  startedAt: number;
}

export function startProgress(e: Extract<SyncStreamEvent, { type: "start" }>, now: number): OverallProgress {
  return { files: e.files, totalBytes: e.bytes, filesDone: 0, bytesDone: 0, currentBytes: 0, workBytes: 0, imported: 0, updated: 0, failed: 0, startedAt: now };
}

/** The progress after one more event of the same run (a `start` begins a new one). */
export function advance(p: OverallProgress | null, e: SyncStreamEvent, now: number): OverallProgress | null {
  if (e.type === "start") return startProgress(e, now);
  if (!p) return p;
  if (e.type === "progress") return { ...p, currentBytes: e.bytes };
  if (e.type !== "file") return p;
  const kind = e.outcome.kind;
  // A listing problem or a file gone from the folder is no listed file (index past the list).
  const listed = e.index < p.files;
  return {
    ...p,
    filesDone: p.filesDone + (listed ? 1 : 0),
    bytesDone: p.bytesDone + e.bytes,
    currentBytes: 0,
    workBytes: p.workBytes + (kind === "unchanged" ? 0 : e.bytes),
    imported: p.imported + (kind === "imported" || kind === "rewritten" ? 1 : 0),
    updated: p.updated + (kind === "appended" ? 1 : 0),
    failed: p.failed + (kind === "failed" ? 1 : 0),
  };
}

/** Milliseconds left, or null while there is too little to judge by. */
export function etaMs(p: OverallProgress, now: number): number | null {
  const elapsed = now - p.startedAt;
  const worked = p.workBytes + p.currentBytes;
  if (elapsed < 1_000 || worked === 0) return null;
  const left = Math.max(0, p.totalBytes - p.bytesDone - p.currentBytes);
  return (left / worked) * elapsed;
}

function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${Math.max(1, s)} s`;
  const m = Math.round(s / 60);
  return m < 60 ? `${m} min` : `${Math.floor(m / 60)} h ${m % 60} min`;
}

/** Percent of the bytes done (0–100), for the progress bar. */
export function percentDone(p: OverallProgress): number {
  if (p.totalBytes === 0) return p.files === 0 ? 100 : Math.round((p.filesDone / p.files) * 100);
  return Math.min(100, Math.round(((p.bytesDone + p.currentBytes) / p.totalBytes) * 100));
}

/** "12 of 300 files · 4.0 MB of 120 MB · 10 sessions imported, 1 updated · about 2 min left". */
export function describeProgress(p: OverallProgress, now: number): string {
  const parts = [`${p.filesDone} of ${p.files} ${p.files === 1 ? "file" : "files"}`, `${formatBytes(p.bytesDone + p.currentBytes)} of ${formatBytes(p.totalBytes)}`];
  parts.push(`${p.imported} ${p.imported === 1 ? "session" : "sessions"} imported${p.updated ? `, ${p.updated} updated` : ""}${p.failed ? `, ${p.failed} failed` : ""}`);
  const eta = p.filesDone < p.files ? etaMs(p, now) : null;
  if (eta !== null) parts.push(`about ${duration(eta)} left`);
  return parts.join(" · ");
}
