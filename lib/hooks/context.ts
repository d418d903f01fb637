/**
 * Read-only session access for hook handlers (session-engine.md §12: `getEntries`, `getEntry`, `getBranch`,
 * `getLeafId`, `getTree`, `getLabel`, `getHeader`).
 * Pure: no network, disk or database access. The wrapper exposes only those seven readers, so a
 * handler cannot reach the appenders or leaf moves of the SessionTree behind it.
 */
import type { HookContext } from "@/lib/hooks/types";
import type { SessionHeader } from "@/lib/session/types";

/** Anything with the seven readers; a SessionTree satisfies it. */
export type HookContextSource = HookContext;

/** Wraps `source` so handlers see only the readers; entry lists are copies. */
export function createHookContext(source: HookContextSource): HookContext {
  return Object.freeze({
    getEntries: () => [...source.getEntries()],
    getEntry: (id: string) => source.getEntry(id),
    getBranch: (fromId?: string | null) => source.getBranch(fromId),
    getLeafId: () => source.getLeafId(),
    getTree: () => source.getTree(),
    getLabel: (id: string) => source.getLabel(id),
    getHeader: () => source.getHeader(),
  });
}

const EMPTY_HEADER: Readonly<SessionHeader> = Object.freeze({ type: "session", id: "", timestamp: "", cwd: "" });

/** The context used when an emit has no session attached: an empty session. */
export const EMPTY_HOOK_CONTEXT: HookContext = Object.freeze({
  getEntries: () => [],
  getEntry: () => undefined,
  getBranch: () => [],
  getLeafId: () => null,
  getTree: () => [],
  getLabel: () => undefined,
  getHeader: () => EMPTY_HEADER,
});
