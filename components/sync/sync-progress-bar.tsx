"use client";
/** The overall progress of a running folder sync (sync-progress.ts): a bar by bytes and one line of counts. */
import { useEffect, useState } from "react";
import { describeProgress, type OverallProgress, percentDone } from "./sync-progress";

export function SyncProgressBar({ progress, file }: { progress: OverallProgress; file?: string | null }) {
  // The estimate moves with the clock between events too.
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(t);
  }, []);
  const percent = percentDone(progress);
  return (
    <div>
      <div
        role="progressbar"
        aria-label="Sync progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="h-1.5 w-full overflow-hidden rounded-full bg-[var(--panel)] ring-1 ring-[var(--border)]"
      >
        <div className="h-full rounded-full bg-[var(--color-accent)]" style={{ width: `${percent}%` }} />
      </div>
      <p className="mt-0.5 text-sm text-muted" data-testid="sync-progress">
        {describeProgress(progress, Math.max(now, progress.startedAt))}
      </p>
      {file && <p className="truncate font-mono text-xs text-muted">{file}</p>}
    </div>
  );
}
