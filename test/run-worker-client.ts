/**
 * Starts test/run-worker.ts as a real child process (tsx with the react-server condition, like
 * `npm start`) on a given database, and talks to it: `call(op, args)` resolves with the
 * command's value or rejects with an Error carrying the worker's error name; `aborted(session)`
 * resolves once the worker reported that run's signal as aborted.
 */
import { createInterface } from "node:readline";
import { exited, spawnWorker } from "./worker-process";

export interface RunWorker {
  pid: number;
  call<T = unknown>(op: string, args: Record<string, unknown>): Promise<T>;
  aborted(session: string): Promise<void>;
  /** SIGKILL: the process dies without cleaning up (its database connections just close). */
  kill(): Promise<void>;
  close(): Promise<void>;
}

type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: { name: string; message: string } };
type Event = { event: "ready"; pid: number } | { event: "aborted"; session: string };

export async function startRunWorker(databaseUrl: string): Promise<RunWorker> {
  const worker = spawnWorker("test/run-worker.ts", { DATABASE_URL: databaseUrl });
  const child = worker.child;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const abortedSessions = new Set<string>();
  const abortWaiters = new Map<string, () => void>();
  let next = 0;
  let markReady: (pid: number) => void = () => {};
  const ready = new Promise<number>((resolve) => {
    markReady = resolve;
  });
  createInterface({ input: child.stdout! }).on("line", (line) => {
    const msg = JSON.parse(line) as Reply | Event;
    if ("event" in msg) {
      if (msg.event === "ready") markReady(msg.pid);
      else {
        abortedSessions.add(msg.session);
        abortWaiters.get(msg.session)?.();
      }
      return;
    }
    const p = pending.get(msg.id);
    pending.delete(msg.id);
    if (msg.ok) p?.resolve(msg.value);
    else p?.reject(Object.assign(new Error(msg.error.message), { name: msg.error.name }));
  });
  child.once("exit", () => {
    for (const p of pending.values()) p.reject(new Error("the worker exited"));
    pending.clear();
  });
  const pid = await Promise.race([ready, exited(child).then(() => Promise.reject(new Error("the worker did not start")))]);
  return {
    pid,
    call<T>(op: string, args: Record<string, unknown>) {
      const id = next++;
      return new Promise<T>((resolve, reject) => {
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
        child.stdin!.write(`${JSON.stringify({ id, op, ...args })}\n`);
      });
    },
    aborted(session) {
      if (abortedSessions.has(session)) return Promise.resolve();
      return new Promise((resolve) => abortWaiters.set(session, resolve));
    },
    kill: worker.kill,
    close: worker.close,
  };
}
