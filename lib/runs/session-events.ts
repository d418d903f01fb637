import "server-only";
/**
 * Changes of one session, pushed to whoever watches it in this process (the SSE route
 * app/api/sessions/[id]/events): every commit, in any process on the database, NOTIFYs
 * SESSION_CHANNEL with the session id and its new rev (lib/db/store/commit-sql.ts); the run
 * registry's connection LISTENs (channel.ts), and this module fans the payloads out by session.
 *
 * Contract: `watchSession(id, onChange)` connects the listening connection if needed (throws
 * DatabaseUnavailableError when it cannot), then calls `onChange(rev)` for each commit of that
 * session after it returned. When the connection was lost and restored, notifications in between
 * are gone, so every watcher gets `onChange(null)`: "something may have changed, look".
 * The returned function stops watching.
 */
import { addChannelDemand, onRunReconnect, onSessionNotification, runChannel } from "./channel";

type Watcher = (rev: number | null) => void;

const KEY = Symbol.for("arbor.runs.sessionWatchers");
type Global = typeof globalThis & { [KEY]?: Map<string, Set<Watcher>> };

function watchers(): Map<string, Set<Watcher>> {
  const g = globalThis as Global;
  g[KEY] ??= new Map();
  return g[KEY];
}

function parse(payload: string): { id: string; rev: number } | null {
  try {
    const v = JSON.parse(payload) as { id?: unknown; rev?: unknown };
    return typeof v.id === "string" && typeof v.rev === "number" ? { id: v.id, rev: v.rev } : null;
  } catch {
    return null;
  }
}

onSessionNotification("session-events", (payload) => {
  const change = parse(payload);
  if (!change) return;
  for (const w of watchers().get(change.id) ?? []) w(change.rev);
});
onRunReconnect("session-events", () => {
  for (const set of watchers().values()) for (const w of set) w(null);
});
addChannelDemand("session-events", () => watchers().size > 0);

export async function watchSession(sessionId: string, onChange: Watcher): Promise<() => void> {
  await runChannel();
  const all = watchers();
  let set = all.get(sessionId);
  if (!set) {
    set = new Set();
    all.set(sessionId, set);
  }
  set.add(onChange);
  return () => {
    const now = all.get(sessionId);
    if (!now) return;
    now.delete(onChange);
    if (now.size === 0) all.delete(sessionId);
  };
}
