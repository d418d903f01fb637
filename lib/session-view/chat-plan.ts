/**
 * Which entries of the active path the chat shows, from the skeleton alone (ui.md "Chat"; the
 * rules of components/chat/chat-items.ts): messages, custom messages that are displayed,
 * compactions and non-empty branch summaries, each marked with whether the model still sees it
 * (entries before the latest compaction's `firstKeptEntryId` were summarised away, session-engine.md §2
 * step 7). The chat loads the contents of one page of these at a time.
 * Pure: no network, disk or database access.
 */
import { type ChatFacts, FLAG } from "@/lib/session-view/tree-skeleton";

/** Chat rows per page: the newest page comes with the session page, older ones on demand. */
export const CHAT_PAGE = 40;

export interface ChatPlanItem {
  id: string;
  inContext: boolean;
}

/** The chat rows of a root-first path (skeleton rows, or chatFacts of its entries), in order. */
export function chatPlan(path: readonly ChatFacts[]): ChatPlanItem[] {
  let lastCompaction = -1;
  for (let i = path.length - 1; i >= 0; i--) {
    if (path[i]!.type === "compaction") {
      lastCompaction = i;
      break;
    }
  }
  let firstKept = -1;
  if (lastCompaction >= 0) {
    const keepId = path[lastCompaction]!.firstKeptEntryId;
    for (let i = 0; i < lastCompaction; i++) {
      if (path[i]!.id === keepId) {
        firstKept = i;
        break;
      }
    }
  }
  const inContext = (i: number) => lastCompaction < 0 || i > lastCompaction || (firstKept >= 0 && i >= firstKept);
  const out: ChatPlanItem[] = [];
  path.forEach((s, i) => {
    if ((s.flags & FLAG.notInChat) !== 0) return;
    out.push({ id: s.id, inContext: inContext(i) || i === lastCompaction });
  });
  return out;
}

/** Index of the first plan item shown when `shown` items from the end are wanted, widened to `selectedId`. */
export function firstShownIndex(plan: readonly ChatPlanItem[], shown: number, selectedId?: string | null): number {
  const selected = selectedId ? plan.findIndex((p) => p.id === selectedId) : -1;
  return Math.max(0, Math.min(plan.length - shown, selected >= 0 ? selected : Number.POSITIVE_INFINITY));
}
