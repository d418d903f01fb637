/**
 * What the chat pane shows for the active path (ui.md "Chat"): every entry on the root → leaf
 * path that a person reads (messages, custom messages, compactions, branch summaries), in order,
 * each marked with whether the model still sees it. Entries before the latest compaction's
 * `firstKeptEntryId` were summarised away (session-engine.md §2 step 7): they stay visible, muted.
 * Which entries are chat rows is decided on the skeleton (lib/session-view/chat-plan.ts); the
 * items are built from the contents of the rows in view. Pure: no DOM, no network.
 */
import { skeletonFacts } from "@/lib/session-view/tree-skeleton";
import type { SessionEntry, ToolCall, ToolResultMessage } from "@/lib/session/types";
import { type ChatPlanItem, chatPlan } from "@/lib/session-view/chat-plan";

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

/** The chat items of a whole path of full entries (tests, tools): chatPlan + chatItemsOf. */
export function buildChatItems(path: readonly SessionEntry[]): ChatItems {
  const byId = new Map(path.map((e) => [e.id, e]));
  return chatItemsOf(chatPlan(path.map(skeletonFacts)), (id) => byId.get(id));
}

/**
 * The chat items of a window of the plan whose contents are loaded (`entryOf` returns
 * undefined for one still loading: it is listed in `pending` and has no item yet). A tool call
 * shows its result inline when both are in the window.
 */
export function chatItemsOf(plan: readonly ChatPlanItem[], entryOf: (id: string) => SessionEntry | undefined): ChatItems & { pending: string[] } {
  const items: ChatItem[] = [];
  const pending: string[] = [];
  const resultsByCallId = new Map<string, ToolResultMessage>();
  const callsById = new Map<string, ToolCall>();
  for (const { id, inContext } of plan) {
    const entry = entryOf(id);
    if (!entry) {
      pending.push(id);
      continue;
    }
    switch (entry.type) {
      case "message": {
        const m = entry.message;
        if (m.role === "toolResult") resultsByCallId.set(m.toolCallId, m);
        if (m.role === "assistant") for (const c of m.content) if (c.type === "toolCall") callsById.set(c.id, c);
        items.push({ kind: "message", entry, inContext });
        break;
      }
      case "custom_message":
        items.push({ kind: "custom", entry, inContext });
        break;
      case "compaction":
        items.push({ kind: "compaction", entry, inContext });
        break;
      case "branch_summary":
        items.push({ kind: "branchSummary", entry, inContext });
        break;
      default:
        break;
    }
  }
  return { items, pending, resultsByCallId, callsById };
}
