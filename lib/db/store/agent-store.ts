import "server-only";
/**
 * The agent's persistence for one session: the `AgentStore` port (lib/agent/ports.ts) over
 * `commitEntries` and the prune store, plus the session's settings column, which the chat
 * runtime reads and the settings action writes.
 *
 * Contract:
 * - `commit` is ONE `commitEntries` call (atomic, optimistic on `expectedLeafId`); a moved leaf
 *   throws ConflictError (name "ConflictError", what lib/agent's isConflictError matches) and
 *   nothing is written. A lost database throws DatabaseUnavailableError (its plain message is
 *   what the agent reports), here and in `persistPrune`.
 * - `persistPrune` stores the pruned tool results (`applyPrune`: the original content is kept
 *   in `pruned_original` so the prune can be shown and undone).
 * - `writeSessionSettings` replaces the session's `settings` JSON (null clears it). The caller
 *   validates it; an unknown or deleted session throws NotFoundError.
 */
import { Prisma } from "@/generated/prisma/client";
import type { AgentStore } from "@/lib/agent/ports";
import { getDb } from "../client";
import { NotFoundError, toDatabaseError } from "../errors";
import { toPgJsonValue } from "../pg-json";
import { commitEntries } from "./commit";
import { applyPrune } from "./prune";

/** The agent reports a failed commit's message to the user: a lost database says so plainly. */
function rethrowPlain(error: unknown): never {
  throw toDatabaseError(error);
}

export function createAgentStore(input: { sessionId: string }): AgentStore {
  const { sessionId } = input;
  return {
    async commit({ expectedLeafId, entries, newLeafId }) {
      await commitEntries({ sessionId, expectedLeafId, entries, newLeafId }).catch(rethrowPlain);
    },
    async persistPrune(pruned) {
      await applyPrune({
        sessionId,
        pruned: pruned.map((p) => ({ entryId: p.entryId, message: p.message, originalContent: p.originalContent })),
      }).catch(rethrowPlain);
    },
  };
}

/** Replaces the stored settings document of a live session. */
export async function writeSessionSettings(input: { sessionId: string; settings: unknown }): Promise<void> {
  const settings = input.settings === null || input.settings === undefined ? Prisma.DbNull : toPgJsonValue(input.settings);
  const { count } = await getDb().session.updateMany({ where: { id: input.sessionId, deletedAt: null }, data: { settings } });
  if (count === 0) throw new NotFoundError({ sessionId: input.sessionId });
}
