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
 *
 * The session list watches every session (`watchAllSessions`, the SSE route
 * app/api/sessions/events): it is told the id of each commit, and of each session a folder sync
 * imported (`notifySessionListed`: an import makes a new session without a commit, so the sync
 * says so on the same channel, with `rev: null`, which watchers of one session ignore).
 */
import { SESSION_CHANNEL } from "@/lib/db";
import { addChannelDemand, onRunReconnect, onSessionNotification, runChannel, runQuery } from "./channel";

type Watcher = (rev: number | null) => void;
/** A watcher of every session: the id that changed, or null after a lost connection. */
type AnyWatcher = (id: string | null) => void;

const KEY = Symbol.for("arbor.runs.sessionWatchers");
const ANY = Symbol.for("arbor.runs.anySessionWatchers");
type Global = typeof globalThis & { [KEY]?: Map<string, Set<Watcher>>; [ANY]?: Set<AnyWatcher> };

function watchers(): Map<string, Set<Watcher>> {
  const g = globalThis as Global;
  g[KEY] ??= new Map();
  return g[KEY];
}

function anyWatchers(): Set<AnyWatcher> {
  const g = globalThis as Global;
  g[ANY] ??= new Set();
  return g[ANY];
}

function parse(payload: string): { id: string; rev: number | null } | null {
  try {
    const v = JSON.parse(payload) as { id?: unknown; rev?: unknown };
    if (typeof v.id !== "string") return null;
    return { id: v.id, rev: typeof v.rev === "number" ? v.rev : null };
  } catch {
    return null;
  }
}

onSessionNotification("session-events", (payload) => {
  const change = parse(payload);
  if (!change) return;
  for (const w of anyWatchers()) w(change.id);
  if (change.rev === null) return;
  for (const w of watchers().get(change.id) ?? []) w(change.rev);
});
onRunReconnect("session-events", () => {
  for (const set of watchers().values()) for (const w of set) w(null);
  for (const w of anyWatchers()) w(null);
});
addChannelDemand("session-events", () => watchers().size > 0 || anyWatchers().size > 0);

/** Watches every session (the session list); connects the listening connection first. Returns the stop function. */
export async function watchAllSessions(onChange: AnyWatcher): Promise<() => void> {
  await runChannel();
  anyWatchers().add(onChange);
  return () => void anyWatchers().delete(onChange);
}

/** Tells every process's list watchers that a session was made outside a commit (a sync's import). Never throws. */
export async function notifySessionListed(sessionId: string): Promise<void> {
  try {
    await runQuery(await runChannel(), "SELECT pg_notify($1, $2)", [SESSION_CHANNEL, JSON.stringify({ id: sessionId, rev: null })]);
  } catch {
    // The list then shows it on its next refetch; the import itself is done.
  }
}

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
