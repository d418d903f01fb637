/**
 * An entry as plain text for an agent: messages as the summarizer's transcript shows them
 * (serializeConversation after convertToLlm, session-engine.md §9), compactions and branch
 * summaries with their summary, other entries by their type.
 */
import { serializeConversation } from "@/lib/compaction/serialize";
import { loadPrompts } from "@/lib/llm/prompts";
import { convertToLlm } from "@/lib/session/file/convert";
import type { PromptSet, SessionEntry } from "@/lib/session/types";

let prompts: PromptSet | undefined;
export function mcpPrompts(): PromptSet {
  prompts ??= loadPrompts();
  return prompts;
}

export interface EntryText {
  id: string;
  /** Index on the branch, root first. */
  index: number;
  type: string;
  role?: string;
  timestamp: string;
  text: string;
}

export function entryText(entry: SessionEntry, index: number): EntryText {
  const base = { id: entry.id, index, type: entry.type, timestamp: entry.timestamp };
  switch (entry.type) {
    case "message":
      return { ...base, role: entry.message.role, text: serializeConversation(convertToLlm([entry.message], mcpPrompts())) };
    case "compaction":
      return { ...base, text: `[Compaction, first kept ${entry.firstKeptEntryId}]: ${entry.summary}` };
    case "branch_summary":
      return { ...base, text: `[Branch summary]: ${entry.summary}` };
    default:
      return { ...base, text: `[${entry.type}]` };
  }
}

/** Shortens an EntryText's text so the item fits in about `room` bytes. */
export function clipEntry<T extends { text: string }>(clip: (text: string, room: number) => string) {
  return (item: T, room: number): T & { clipped: true } => ({ ...item, text: clip(item.text, room), clipped: true });
}
