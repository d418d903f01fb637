import "server-only";
/**
 * The whole message lists of recently inspected turns, kept in process so the pages of a long
 * turn (GET …/inspect/messages) are slices of the list the turn's own request built, not a new
 * reconstruction or source matching of ~100k messages per page; and the views as sent (windowed
 * TurnViews), so asking for the same turn again (a reload, the preview every page load asks
 * for) repeats no reconstruction and no diff. Both bounded by bytes (ByteLru).
 *
 * Why a list cannot go stale: its key names everything it was built from (inspect.ts turnKey):
 * the session's data version (`rev`, bumped by every change to its entries or leaf), the
 * session's recorded calls (their count, the newest, and how many know their entry: recording a
 * call or linking it to its entry changes views), the call it shows or the entry it rebuilds,
 * the preview's model and settings, and the prompt set. A key that no longer applies is never
 * asked for again.
 * Every process has its own cache; a miss rebuilds the list from the read model.
 */
import { ByteLru } from "@/lib/byte-lru";
import { cacheBudgetBytes } from "@/lib/db";
import type { InspectedMessage, TurnView } from "@/lib/types/inspector";
import type { PromptSet } from "@/lib/session/types";

/** About what one InspectedMessage costs here: its fields; the message objects are shared with the read model and bodies cache. */
const BYTES_PER_MESSAGE = 200;
/** A quarter of the read model's budget (ARBOR_CACHE_MB, default 256 MB; 0: nothing kept, every page rebuilds). */
const budget = () => cacheBudgetBytes() / 4;

const lists = new ByteLru<{ messages: readonly InspectedMessage[]; bytes: number }>(budget());
/** Views as sent (a window of at most MESSAGE_WINDOW_MAX messages each): an eighth of the budget. */
const views = new ByteLru<{ view: TurnView; bytes: number }>(budget() / 2);

const promptIds = new WeakMap<PromptSet, number>();
let nextPromptId = 0;

/**
 * The key of a turn's list: the session at data version `rev`, converted with `prompts`, and
 * `source` (the recorded call, the rebuilt entry, or the preview with its model and settings).
 */
export function turnKey(sessionId: string, rev: number, prompts: PromptSet, source: string): string {
  let promptId = promptIds.get(prompts);
  if (promptId === undefined) {
    promptId = nextPromptId++;
    promptIds.set(prompts, promptId);
  }
  return JSON.stringify([sessionId, rev, promptId, source]);
}

export function rememberTurnMessages(key: string, messages: readonly InspectedMessage[]): void {
  lists.set(key, { messages, bytes: (messages.length + 1) * BYTES_PER_MESSAGE });
}

export function recalledTurnMessages(key: string): readonly InspectedMessage[] | undefined {
  return lists.get(key)?.messages;
}

/**
 * Keeps a view as sent. Its size is its JSON text's length, twice (strings are two bytes a
 * character at worst; messages shared with the read model are counted as if they were not).
 */
export function rememberTurnView(key: string, view: TurnView): void {
  views.set(key, { view, bytes: JSON.stringify(view).length * 2 });
}

export function recalledTurnView(key: string): TurnView | undefined {
  return views.get(key)?.view;
}

/** Empties the cache (tests: as a restart would). */
export function clearTurnMessagesCache(): void {
  lists.clear();
  views.clear();
}
