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
import type { InspectedMessagesPage } from "@/lib/inspector/types";
import type { PromptSet } from "@/lib/session/types";
import { callsContext } from "./calls";
import { type InspectNextTurnInput, resolveCall, resolveEntry, resolvePreview, type TurnTarget } from "./inspect";
import { pageOf, pageProblem } from "./message-window";
import { recalledTurnMessages, rememberTurnMessages } from "./turn-messages-cache";

export type MessagesPageInput = {
  sessionId: string;
  prompts: PromptSet;
  target: TurnTarget;
  offset: number;
  limit: number;
} & Omit<Extract<InspectNextTurnInput, { configure: unknown }>, "sessionId" | "prompts">;

export type MessagesPageResult = { page: InspectedMessagesPage } | { problem: string } | "not_assistant" | null;

export async function inspectMessagesPage(input: MessagesPageInput): Promise<MessagesPageResult> {
  const ctx = await callsContext(input.sessionId, input.prompts);
  if (!ctx) return null;
  const { target } = input;
  const turn =
    target.kind === "call"
      ? resolveCall(ctx, target.callId)
      : target.kind === "entry"
        ? resolveEntry(ctx, target.entryId)
        : await resolvePreview(ctx, input);
  if (turn === null || turn === "not_assistant") return turn;
  let all = recalledTurnMessages(turn.key);
  if (!all) {
    all = (await turn.build({ diff: false })).messages;
    rememberTurnMessages(turn.key, all);
  }
  const problem = pageProblem(input.offset, input.limit, all.length);
  if (problem) return { problem };
  return { page: { offset: input.offset, total: all.length, messages: pageOf(all, input.offset, input.limit) } };
}
