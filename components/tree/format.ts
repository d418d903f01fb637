/**
 * Display wording of canvas nodes. Pure: no React, no DOM.
 */
import type { RoleMark } from "@/components/tree/types";

/** `1.2k tokens`, `340 tokens`, `120k tokens`: a rounded estimate (spec §4 is chars / 4). */
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

/** A Markdown line without its heading, list or task-box marker: "## Goal" → "Goal". */
export function plainLine(line: string): string {
  return line.replace(/^\s*(#+|[-*+]( \[[ xX]\])?|\d+\.)\s+/, "").trim();
}

/**
 * The first `lines` non-empty lines of a Markdown summary as plain lines (hover cards),
 * cut to `chars` characters with "…" when longer.
 */
export function previewLines(text: string, lines: number, chars: number): string {
  const out: string[] = [];
  for (const raw of text.split("\n")) {
    const line = plainLine(raw);
    if (line !== "") out.push(line);
    if (out.length >= lines) break;
  }
  const joined = out.join("\n");
  return joined.length > chars ? `${joined.slice(0, chars)}…` : joined;
}
