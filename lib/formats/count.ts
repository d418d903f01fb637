/**
 * Counting what a mapped session holds, in the terms the issue's "done when" uses: prompts,
 * assistant messages, tool calls and results, tool errors, compactions, custom entries.
 * Pure: no network, disk or database access. Tests compare these with the generators' counts.
 */
import type { SessionEntry } from "@/lib/session/types";

export interface SessionCounts {
  /** User messages that are not synthetic (a person's prompts). */
  prompts: number;
  assistants: number;
  toolCalls: number;
  toolResults: number;
  toolErrors: number;
  compactions: number;
  custom: number;
  labels: number;
}

export function emptyCounts(): SessionCounts {
  return { prompts: 0, assistants: 0, toolCalls: 0, toolResults: 0, toolErrors: 0, compactions: 0, custom: 0, labels: 0 };
}

export function countEntries(entries: Iterable<SessionEntry>): SessionCounts {
  const c = emptyCounts();
  for (const e of entries) {
    if (e.type === "compaction") c.compactions += 1;
    else if (e.type === "custom") c.custom += 1;
    else if (e.type === "label") c.labels += 1;
    else if (e.type === "message") {
      const m = e.message;
      if (m.role === "user" && !m.synthetic) c.prompts += 1;
      else if (m.role === "assistant") {
        c.assistants += 1;
        c.toolCalls += m.content.filter((p) => p.type === "toolCall").length;
      } else if (m.role === "toolResult") {
        c.toolResults += 1;
        if (m.isError) c.toolErrors += 1;
      }
    }
  }
  return c;
}
