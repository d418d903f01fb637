import "server-only";
/**
 * The whole message lists of recently inspected turns, kept in process so the pages of a long
 * turn (GET …/inspect/messages) are slices of the list the turn's own request built, not a new
 * reconstruction or source matching of ~100k messages per page. Bounded by bytes (ByteLru).
 *
 * Why a list cannot go stale: its key names everything it was built from (inspect.ts turnKey):
 * the session's data version (`rev`, bumped by every change to its entries or leaf), the call
 * it shows (a recorded list never changes) or the entry it rebuilds, the preview's model and
 * settings, and the prompt set. A key that no longer applies is never asked for again.
 * Every process has its own cache; a miss rebuilds the list from the read model.
 */
import { ByteLru } from "@/lib/db";
import { env } from "@/lib/env";
import type { InspectedMessage } from "@/lib/inspector/types";
import type { PromptSet } from "@/lib/session/types";

/** About what one InspectedMessage costs here: its fields; the message objects are shared with the read model and bodies cache. */
const BYTES_PER_MESSAGE = 200;
/** A quarter of the read model's budget (ARBOR_CACHE_MB, default 256 MB; 0: nothing kept, every page rebuilds). */
const budget = () => ((env.ARBOR_CACHE_MB ?? 256) * 1024 * 1024) / 4;

const lists = new ByteLru<{ messages: readonly InspectedMessage[]; bytes: number }>(budget());

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

/** Empties the cache (tests: as a restart would). */
export function clearTurnMessagesCache(): void {
  lists.clear();
}
