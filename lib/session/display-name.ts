/**
 * A session's display name (session-engine.md §1.2).
 * Pure: no network, disk or database access. O(n) worst case.
 *
 * Order: the header `title` (oh-my-pi), else the `name` of the last `session_info` entry (pi;
 * a last entry without a name clears earlier names), else the first prompt a person typed
 * (prompt-title.ts: synthetic messages passed over, agent markup left out, a lone slash command
 * only when no other prompt follows). `undefined` when none applies; the caller picks its own
 * placeholder.
 */

import { PromptTitle } from "@/lib/session/prompt-title";
import type { SessionEntry, SessionHeader } from "@/lib/session/types";

export { userMessageText } from "@/lib/session/prompt-title";

function nonEmpty(v: unknown): string | undefined {
  return typeof v === "string" && v.trim() !== "" ? v.trim() : undefined;
}

export function sessionDisplayName(header: SessionHeader, entries: readonly SessionEntry[]): string | undefined {
  const title = nonEmpty(header.title);
  if (title) return title;

  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i]!;
    if (entry.type !== "session_info") continue;
    const name = nonEmpty(entry.name);
    if (name) return name;
    break;
  }

  const prompts = new PromptTitle();
  for (const entry of entries) {
    if (entry.type === "message" && entry.message.role === "user") prompts.offer(entry.message);
    if (prompts.done) break;
  }
  return prompts.title;
}
