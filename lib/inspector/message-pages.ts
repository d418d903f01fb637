import "server-only";
/**
 * One page of a turn's messages (GET /api/sessions/[id]/inspect/messages): the messages the
 * turn's view left out of its window (message-window.ts), loaded as the user scrolls.
 *
 * Contract:
 * - A page is the slice [offset, offset + limit) of exactly the list the turn's view counts
 *   (`messageCount`), each message as the view would carry it (`index`, tokens, `kept`,
 *   `firstKept`, source entry): pages of one turn concatenate to its whole list.
 * - Reads: the read model's version check with the calls (ONE statement when current, as every
 *   inspector read); the whole list is then the one the turn's own request built
 *   (turn-messages-cache.ts), else it is rebuilt from the read model with no diff (plus at most
 *   one statement for a recorded call's list when the bodies cache lost it). Never a whole-session
 *   re-read per page.
 * - null for an unknown session / entry / call, "not_assistant" for an entry that is not an
 *   assistant message, `{ problem }` when offset / limit do not fit the turn (pageProblem).
 */
import type { InspectedMessagesPage, InspectTarget } from "@/lib/types/inspector";
import type { PromptSet } from "@/lib/session/types";
import { callsContext } from "./calls";
import { type PreviewOptions, resolveTurn } from "./inspect";
import { pageOf, pageProblem } from "./message-window";
import { recalledTurnMessages, rememberTurnMessages } from "./turn-messages-cache";

export type MessagesPageInput = {
  sessionId: string;
  prompts: PromptSet;
  target: InspectTarget;
  offset: number;
  limit: number;
} & PreviewOptions;

export type MessagesPageResult = { page: InspectedMessagesPage } | { problem: string } | "not_assistant" | null;

export async function inspectMessagesPage(input: MessagesPageInput): Promise<MessagesPageResult> {
  const { sessionId, prompts, target, offset, limit, ...preview } = input;
  const ctx = await callsContext(sessionId, prompts);
  if (!ctx) return null;
  const turn = await resolveTurn(ctx, target, preview);
  if (turn === null || turn === "not_assistant") return turn;
  let all = recalledTurnMessages(turn.key);
  if (!all) {
    all = (await turn.build({ diff: false })).messages;
    rememberTurnMessages(turn.key, all);
  }
  const problem = pageProblem(offset, limit, all.length);
  if (problem) return { problem };
  return { page: { offset, total: all.length, messages: pageOf(all, offset, limit) } };
}
