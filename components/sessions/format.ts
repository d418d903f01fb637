/**
 * Display formatting for the session list and imports. The UI speaks English, so numbers use
 * the "en-US" format on the server and in every browser alike (no hydration mismatches).
 */
import { useSyncExternalStore } from "react";
import { FORMAT_LABELS, type FormatId, formatName } from "@/lib/formats/types";
import { groupDigits } from "@/lib/text/group-digits";

export function formatCount(n: number, one: string, many: string): string {
  return `${groupDigits(n)} ${n === 1 ? one : many}`;
}

const relative = new Intl.RelativeTimeFormat("en-US", { numeric: "auto" });
const STEPS: [limitSeconds: number, unitSeconds: number, unit: Intl.RelativeTimeFormatUnit][] = [
  [60, 1, "second"],
  [3600, 60, "minute"],
  [86_400, 3600, "hour"],
  [7 * 86_400, 86_400, "day"],
];

/** "just now", "5 minutes ago", "yesterday"; older than a week: the date ("Nov 20, 2025"). */
export function formatWhen(iso: string, now: number): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return "";
  const seconds = Math.round((at - now) / 1000);
  if (Math.abs(seconds) < 45) return "just now";
  for (const [limit, unit, name] of STEPS) {
    if (Math.abs(seconds) < limit) return relative.format(Math.round(seconds / unit), name);
  }
  return new Date(at).toLocaleDateString("en-US", { dateStyle: "medium" });
}

export function formatFullDate(iso: string): string {
  const at = Date.parse(iso);
  return Number.isNaN(at) ? "" : new Date(at).toLocaleString("en-US", { dateStyle: "full", timeStyle: "short" });
}

// One clock for every row, ticking each minute. The server (and hydration) sees null: relative
// times depend on the browser's clock and time zone, so they are only rendered in the browser.
let now = Date.now();
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (!timer) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      for (const l of listeners) l();
    }, 60_000);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

/** The current time in ms, refreshed each minute; null while rendering on the server. */
export function useNow(): number | null {
  return useSyncExternalStore(
    subscribe,
    () => now,
    () => null,
  );
}

/**
 * The formats Arbor reads, named as people call the tools ("pi / oh-my-pi, Claude Code or Codex
 * CLI"): from the format table itself, so a format added there is named here too.
 */
export function readableFormats(): string {
  const names = (Object.keys(FORMAT_LABELS) as FormatId[]).map(formatName);
  return names.length > 1 ? `${names.slice(0, -1).join(", ")} or ${names.at(-1)}` : (names[0] ?? "");
}
