"use client";
/**
 * "live": the session was written in the last LIVE_MS (an agent appending to a followed file, a
 * chat turn), judged from its last activity against the clock useNow keeps (refreshed each
 * minute). Nothing while rendering on the server (no clock there).
 */
import { useNow } from "./format";

export const LIVE_MS = 5 * 60_000;

export function isLive(lastActivityAt: string, now: number): boolean {
  return now - Date.parse(lastActivityAt) < LIVE_MS;
}

export function LiveBadge({ lastActivityAt }: { lastActivityAt: string }) {
  const now = useNow();
  if (now === null || !isLive(lastActivityAt, now)) return null;
  return (
    <span
      title="Written in the last five minutes"
      className="inline-flex items-center gap-1 rounded-full bg-emerald-100 px-1.5 py-px text-xs font-medium text-emerald-800 dark:bg-emerald-900 dark:text-emerald-100"
    >
      <span aria-hidden="true" className="h-1.5 w-1.5 rounded-full bg-emerald-500" />
      live
    </span>
  );
}
