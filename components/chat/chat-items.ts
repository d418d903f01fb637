/**
 * What the chat pane shows for the active path (ui.md "Chat"): every entry on the root → leaf
 * path that a person reads (messages, custom messages, compactions, branch summaries), in order,
 * each marked with whether the model still sees it. Entries before the latest compaction's
 * `firstKeptEntryId` were summarised away (spec §2 step 7): they stay visible, muted.
 * Pure: no DOM, no network.
 */
import type { SessionEntry, ToolCall, ToolResultMessage } from "@/lib/session/types";

export type ChatItem =
  | { kind: "message"; entry: SessionEntry & { type: "message" }; inContext: boolean }
  | { kind: "custom"; entry: SessionEntry & { type: "custom_message" }; inContext: boolean }
  | { kind: "compaction"; entry: SessionEntry & { type: "compaction" }; inContext: boolean }
  | { kind: "branchSummary"; entry: SessionEntry & { type: "branch_summary" }; inContext: boolean };

export interface ChatItems {
  items: ChatItem[];
  /** Tool results by tool-call id, so a tool call can show its result inline. */
  resultsByCallId: Map<string, ToolResultMessage>;
  /** Tool calls by id (for diff views of edit/write results). */
  callsById: Map<string, ToolCall>;
}

export function buildChatItems(path: readonly SessionEntry[]): ChatItems {
  let lastCompaction = -1;
  for (let i = path.length - 1; i >= 0; i--) {
    if (path[i]?.type === "compaction") {
      lastCompaction = i;
      break;
    }
  }
  // Index of the first entry still in context before the compaction; -1 = none kept.
  let firstKept = -1;
  if (lastCompaction >= 0) {
    const keepId = (path[lastCompaction] as { firstKeptEntryId?: string }).firstKeptEntryId;
    for (let i = 0; i < lastCompaction; i++) {
      if (path[i]?.id === keepId) {
        firstKept = i;
        break;
      }
    }
  }
  const inContext = (i: number) => lastCompaction < 0 || i > lastCompaction || (firstKept >= 0 && i >= firstKept);

  const items: ChatItem[] = [];
  const resultsByCallId = new Map<string, ToolResultMessage>();
  const callsById = new Map<string, ToolCall>();
  path.forEach((entry, i) => {
    const visible = inContext(i) || i === lastCompaction;
    switch (entry.type) {
      case "message": {
        const m = entry.message;
        if (m.role === "toolResult") resultsByCallId.set(m.toolCallId, m);
        if (m.role === "assistant") for (const c of m.content) if (c.type === "toolCall") callsById.set(c.id, c);
        items.push({ kind: "message", entry, inContext: inContext(i) });
        break;
      }
      case "custom_message":
        if (entry.display !== false) items.push({ kind: "custom", entry, inContext: inContext(i) });
        break;
      case "compaction":
        items.push({ kind: "compaction", entry, inContext: visible });
        break;
      case "branch_summary":
        if (entry.summary) items.push({ kind: "branchSummary", entry, inContext: inContext(i) });
        break;
      default:
        break;
    }
  });
  return { items, resultsByCallId, callsById };
}
