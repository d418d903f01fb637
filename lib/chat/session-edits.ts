import "server-only";
/**
 * What the session page's server actions delegate to (app/sessions/[id]/actions.ts): label an
 * entry, fork to a new session, undo a navigation, change the session's settings. Each returns
 * an ActionResult; expected failures are values:
 * - `not_found`: the session (or the entry) does not exist or is in the trash;
 * - `conflict`: the session moved meanwhile (another tab: "This session changed in another tab
 *   — reload"), or a turn / compaction / navigation is running in it right now — tree edits
 *   take the session's run slot so they can never race a running agent's commits;
 * - `invalid_input`: settings that lib/settings (or the agent options) reject, with every field
 *   error in `message` ("compaction.reserveTokens: expected a positive integer; …");
 * - `failed`: the database is not reachable (the message says so; retrying may help).
 */
import type { ActionResult } from "@/lib/action-result";
import { branch, ConflictError, DATABASE_UNAVAILABLE_MESSAGE, findLiveSession, forkSession as forkStoredSession, isDatabaseUnavailable, loadPath, NotFoundError, readLiveSession, resetLeaf, type SessionMeta, setArchive as setStoredArchive, setLabel as setStoredLabel, setPin as setStoredPin, writeSessionSettings } from "@/lib/db";
import { pinRefusal } from "@/lib/session/pins";
import type { Settings } from "@/lib/settings";
import { BusyError, withRun } from "@/lib/runs";
import { resolveSessionRoot } from "./runtime-config";
import { type AgentOptions, type SessionConfigUpdate, updateSessionConfig } from "@/lib/chat-protocol/session-config";

/** An entry that cannot be pinned (lib/session/pins.ts pinRefusal). */
class NotPinnable extends Error {}

async function settle<T>(run: () => Promise<T>): Promise<ActionResult<T>> {
  try {
    return { ok: true, data: await run() };
  } catch (err) {
    if (err instanceof NotPinnable) return { ok: false, error: "invalid_input", message: err.message };
    if (err instanceof NotFoundError) return { ok: false, error: "not_found", message: err.message };
    if (err instanceof ConflictError || err instanceof BusyError) return { ok: false, error: "conflict", message: err.message };
    if (isDatabaseUnavailable(err)) return { ok: false, error: "failed", message: DATABASE_UNAVAILABLE_MESSAGE };
    throw err;
  }
}

async function liveMeta(sessionId: string): Promise<SessionMeta> {
  const meta = await findLiveSession({ id: sessionId });
  if (!meta) throw new NotFoundError({ sessionId });
  return meta;
}

/** Sets (or with "" clears) an entry's label; the label entry becomes the leaf (session-engine.md §1.6). */
export function labelEntry(input: { sessionId: string; entryId: string; label: string }): Promise<
  ActionResult<{ entryId: string; labelEntryId: string; leafId: string | null }>
> {
  return settle(() =>
    withRun(input.sessionId, "edit", async () => {
      const meta = await liveMeta(input.sessionId);
      const label = input.label.trim();
      const result = await setStoredLabel({
        sessionId: input.sessionId,
        expectedLeafId: meta.leafId,
        targetId: input.entryId,
        label: label === "" ? undefined : label,
      });
      return { entryId: input.entryId, labelEntryId: result.entries[0]?.id ?? "", leafId: result.leafId };
    }),
  );
}

/** Pins or unpins an entry (session-engine.md §19); the pin entry becomes the leaf, like a label. */
export function pinEntry(input: { sessionId: string; entryId: string; pinned: boolean }): Promise<
  ActionResult<{ entryId: string; pinEntryId: string; pinned: boolean; leafId: string | null }>
> {
  return settle(() =>
    withRun(input.sessionId, "edit", async () => {
      const meta = await liveMeta(input.sessionId);
      // Unpinning stays possible for any entry (an imported file may pin anything).
      const target = input.pinned ? (await readLiveSession({ sessionId: input.sessionId }))?.tree.getEntry(input.entryId) : undefined;
      const refusal = target && pinRefusal(target);
      if (refusal) throw new NotPinnable(refusal);
      const result = await setStoredPin({ sessionId: input.sessionId, expectedLeafId: meta.leafId, targetId: input.entryId, pinned: input.pinned });
      return { entryId: input.entryId, pinEntryId: result.entries[0]?.id ?? "", pinned: input.pinned, leafId: result.leafId };
    }),
  );
}

/** An expected refusal: archiving the branch that holds the current leaf. */
class OnCurrentPathError extends Error {}

export const ON_CURRENT_PATH_MESSAGE = "This branch holds the current leaf: continue from another point before archiving it.";

/**
 * Archives (or restores) the branch that starts at `entryId` (session-engine.md §19.4); the archive
 * entry becomes the leaf, like a pin. The branch holding the current leaf cannot be archived.
 */
export async function archiveBranch(input: { sessionId: string; entryId: string; archived: boolean }): Promise<
  ActionResult<{ entryId: string; archiveEntryId: string; archived: boolean; leafId: string | null }>
> {
  try {
    return await settle(() =>
      withRun(input.sessionId, "edit", async () => {
        const meta = await liveMeta(input.sessionId);
        if (input.archived) {
          const path = await loadPath({ sessionId: input.sessionId, leafId: meta.leafId });
          if (path.some((e) => e.id === input.entryId)) throw new OnCurrentPathError(ON_CURRENT_PATH_MESSAGE);
        }
        const result = await setStoredArchive({ sessionId: input.sessionId, expectedLeafId: meta.leafId, targetId: input.entryId, archived: input.archived });
        return { entryId: input.entryId, archiveEntryId: result.entries[0]?.id ?? "", archived: input.archived, leafId: result.leafId };
      }),
    );
  } catch (err) {
    if (err instanceof OnCurrentPathError) return { ok: false, error: "invalid_input", message: err.message };
    throw err;
  }
}

/** "Fork to new session" from an entry (session-engine.md §1.6 createBranchedSession). */
export function forkFromEntry(input: { sessionId: string; entryId: string; title?: string }): Promise<ActionResult<{ id: string }>> {
  return settle(async () => {
    await liveMeta(input.sessionId);
    const forked = await forkStoredSession({
      sessionId: input.sessionId,
      leafId: input.entryId,
      ...(input.title ? { title: input.title } : {}),
    });
    return { id: forked.sessionId };
  });
}

/** Moves the leaf back to where it was before a navigation (the "Undo" toast). */
export function moveLeafBack(input: { sessionId: string; leafId: string | null; expectedLeafId: string | null }): Promise<
  ActionResult<{ leafId: string | null }>
> {
  return settle(() =>
    withRun(input.sessionId, "edit", async () => {
      await liveMeta(input.sessionId);
      const base = { sessionId: input.sessionId, expectedLeafId: input.expectedLeafId };
      const result = input.leafId === null ? await resetLeaf(base) : await branch({ ...base, targetId: input.leafId });
      return { leafId: result.leafId };
    }),
  );
}

export interface SessionSettingsView {
  /** The effective settings (defaults + the session's override). */
  settings: Settings;
  /** The session's override as stored (engine part). */
  override: Record<string, unknown>;
  agent: AgentOptions;
}

export async function changeSessionSettings(
  input: { sessionId: string } & SessionConfigUpdate,
): Promise<ActionResult<SessionSettingsView>> {
  const found = await settle(() => findLiveSession({ id: input.sessionId }));
  if (!found.ok) return found;
  const meta = found.data;
  if (!meta) return { ok: false, error: "not_found", message: `Session ${input.sessionId} not found` };
  const { sessionId, ...update } = input;
  const result = updateSessionConfig(meta.settings, update);
  if (!result.ok) return { ok: false, error: "invalid_input", message: result.errors.map((e) => e.message).join("; ") };
  // A project folder must exist and lie inside an allowed root: check it now, not at the next turn.
  if (update.projectDir) {
    const refused = await resolveSessionRoot(sessionId, update.projectDir).then(
      () => undefined,
      (error: Error) => error.message,
    );
    if (refused) return { ok: false, error: "invalid_input", message: `projectDir: ${refused}` };
  }
  return settle(async () => {
    await writeSessionSettings({ sessionId, settings: result.stored });
    const { settings, override, agent } = result.config;
    return { settings, override, agent };
  });
}
