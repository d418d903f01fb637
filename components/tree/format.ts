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

export { plainLine, previewLines } from "@/lib/session-view/tree-skeleton";
