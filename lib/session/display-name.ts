/**
 * A session's display name (session-engine.md §1.2).
 * Pure: no network, disk or database access. O(n) worst case.
 *
 * Order: the header `title` (oh-my-pi), else the `name` of the last `session_info` entry (pi;
 * a last entry without a name clears earlier names), else the text of the first user message
 * that has any. `undefined` when none applies; the caller picks its own placeholder.
 */

import type { SessionEntry, SessionHeader, UserMessage } from "@/lib/session/types";

function nonEmpty(v: unknown): string | undefined {
  return typeof v === "string" && v.trim() !== "" ? v.trim() : undefined;
}

/** A user message's text: the string content, or its text blocks joined with "\n". */
export function userMessageText(message: UserMessage): string {
  if (typeof message.content === "string") return message.content;
  const parts: string[] = [];
  for (const block of message.content) if (block.type === "text") parts.push(block.text);
  return parts.join("\n");
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

  for (const entry of entries) {
    if (entry.type !== "message" || entry.message.role !== "user") continue;
    const text = nonEmpty(userMessageText(entry.message));
    if (text) return text;
  }
  return undefined;
}
