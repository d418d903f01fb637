import "server-only";
/**
 * Stop across processes, over NOTIFY on the run-registry channel (channel.ts).
 *
 * Protocol (JSON payloads on `arbor_runs`; every process hears every message):
 * - `{ t: "stop", s: sessionId, r: requestId }`: a process asks whoever runs session `s` to stop.
 * - `{ t: "stopped", r: requestId, ok }`: the process that runs it has aborted the run's signal
 *   (`ok: true`), or runs it but it cannot be stopped — an edit, or already stopped (`ok: false`).
 *   Only that process answers; the others (and the sender itself) stay silent.
 * `requestRunStop` resolves with the first answer's `ok`, false when none came within the bound
 * (nobody ran it, or the holder's listener is down). The answer means "aborted", like the
 * in-process abortRun: the run then ends and saves what it has on its own time.
 */
import { randomUUID } from "node:crypto";
import { onRunNotification, RUN_CHANNEL, runChannel, runQuery } from "./channel";

/** How long a Stop waits for the running process's answer. */
export const STOP_ACK_TIMEOUT_MS = 2_000;

type Message = { t: "stop"; s: string; r: string } | { t: "stopped"; r: string; ok: boolean };

/** What this process did with a Stop for one of its sessions. */
export type LocalStop = "stopped" | "not_stoppable" | "not_running";

const KEY = Symbol.for("arbor.db.runStop");
type Global = typeof globalThis & { [KEY]?: { waiting: Map<string, (ok: boolean) => void>; abortLocal: (sessionId: string) => LocalStop } };

function state() {
  const g = globalThis as Global;
  g[KEY] ??= { waiting: new Map(), abortLocal: () => "not_running" };
  return g[KEY];
}

function parse(payload: string): Message | undefined {
  try {
    const m = JSON.parse(payload) as Partial<Message>;
    if (m.t === "stop" && typeof m.s === "string" && typeof m.r === "string") return { t: "stop", s: m.s, r: m.r };
    if (m.t === "stopped" && typeof m.r === "string") return { t: "stopped", r: m.r, ok: m.ok === true };
  } catch {
    // Not ours (someone else NOTIFYing on the channel): ignore.
  }
  return undefined;
}

async function send(message: Message): Promise<void> {
  await runQuery(await runChannel(), "SELECT pg_notify($1, $2)", [RUN_CHANNEL, JSON.stringify(message)]);
}

function received(payload: string): void {
  const m = parse(payload);
  if (!m) return;
  const s = state();
  if (m.t === "stopped") {
    s.waiting.get(m.r)?.(m.ok);
    return;
  }
  const outcome = s.abortLocal(m.s);
  if (outcome === "not_running") return;
  send({ t: "stopped", r: m.r, ok: outcome === "stopped" }).catch((error: unknown) => {
    console.warn(`arbor: session ${m.s}: could not acknowledge a Stop from another process: ${String(error)}`);
  });
}

/**
 * Makes this process answer Stop requests: `abortLocal(sessionId)` aborts the session's run
 * here and says what it found.
 */
export function serveRunStops(abortLocal: (sessionId: string) => LocalStop): void {
  state().abortLocal = abortLocal;
  onRunNotification("run-stop", received);
}

/** Asks the process running `sessionId` to stop it; true once it answered that it did. Throws DatabaseUnavailableError. */
export async function requestRunStop(sessionId: string, timeoutMs = STOP_ACK_TIMEOUT_MS): Promise<boolean> {
  const s = state();
  const r = randomUUID();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const answered = new Promise<boolean>((resolve) => {
    s.waiting.set(r, resolve);
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    await send({ t: "stop", s: sessionId, r });
    return await answered;
  } finally {
    clearTimeout(timer);
    s.waiting.delete(r);
  }
}
