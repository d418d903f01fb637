/**
 * Display wording of canvas nodes. Pure: no React, no DOM.
 */
import type { RoleMark } from "@/components/tree/types";

/** `1.2k tokens`, `340 tokens`, `120k tokens`: a rounded estimate (session-engine.md §4 is chars / 4). */
export function formatTokens(tokens: number): string {
  if (tokens < 1000) return `${tokens} ${tokens === 1 ? "token" : "tokens"}`;
  const k = tokens / 1000;
  return `${k >= 100 ? Math.round(k) : Number(k.toFixed(1))}k tokens`;
}

/**
 * The row text without its `user: ` / `assistant: ` prefix, for nodes whose role mark
 * already shows that word (the mark is followed by a hidden ":" so a screen reader still
 * hears the full §16.2 row text). Other row texts are returned unchanged.
 */
export function bodyText(text: string, role: RoleMark): string {
  const prefix = `${role}: `;
  return (role === "user" || role === "assistant") && text.startsWith(prefix) ? text.slice(prefix.length) : text;
}

/** A pause as a person says it: "45 min", "3 h", "2 days" (rounded down; under a minute: "<1 min"). */
export function duration(ms: number): string {
  const min = Math.floor(ms / 60_000);
  if (min < 1) return "<1 min";
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  if (h < 48) return `${h} h`;
  return `${Math.floor(h / 24)} days`;
}

const two = (n: number) => String(n).padStart(2, "0");
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** The local time of day of an epoch ms, "14:05". */
export function clockTime(ms: number): string {
  const d = new Date(ms);
  return `${two(d.getHours())}:${two(d.getMinutes())}`;
}

/** The local day and time, "Jan 15 14:05": what tells apart sibling landmarks of different days. */
export function dayTime(ms: number): string {
  const d = new Date(ms);
  return `${MONTHS[d.getMonth()]} ${d.getDate()} ${clockTime(ms)}`;
}

export { plainLine, previewLines } from "@/lib/session-view/tree-skeleton";
