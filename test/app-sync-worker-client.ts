/**
 * Starts test/app-sync-worker.ts as a real child process (an app process's watcher) and collects
 * its events: `next(match)` resolves with the first event (seen before or after the call) that
 * `match` accepts and that no earlier `next` took.
 */
import { createInterface } from "node:readline";
import { spawnWorker } from "./worker-process";

export type WatcherEvent =
  | { event: "ready"; pid: number }
  | { event: "watching"; folders: string[] | null }
  | { event: "run"; counts: Record<string, number> }
  | { event: "error"; message: string };

export interface WatcherProcess {
  pid: number;
  events: WatcherEvent[];
  next(match: (e: WatcherEvent) => boolean, withinMs?: number): Promise<WatcherEvent>;
  kill(): Promise<void>;
  close(): Promise<void>;
}

export async function startWatcherProcess(env: Record<string, string>): Promise<WatcherProcess> {
  const worker = spawnWorker("test/app-sync-worker.ts", env);
  const child = worker.child;
  const events: WatcherEvent[] = [];
  let taken = 0;
  const waiters = new Set<() => void>();
  createInterface({ input: child.stdout! }).on("line", (line) => {
    events.push(JSON.parse(line) as WatcherEvent);
    for (const w of waiters) w();
  });
  const next = (match: (e: WatcherEvent) => boolean, withinMs = 20_000) =>
    new Promise<WatcherEvent>((resolve, reject) => {
      const look = () => {
        const i = events.findIndex((e, k) => k >= taken && match(e));
        if (i === -1) return false;
        taken = i + 1;
        waiters.delete(look);
        clearTimeout(timer);
        resolve(events[i]!);
        return true;
      };
      const timer = setTimeout(() => {
        waiters.delete(look);
        reject(new Error(`no matching watcher event within ${withinMs} ms; events: ${JSON.stringify(events)}`));
      }, withinMs);
      if (!look()) waiters.add(look);
    });
  const ready = (await next((e) => e.event === "ready")) as { pid: number };
  return {
    pid: ready.pid,
    events,
    next,
    kill: worker.kill,
    close: worker.close,
  };
}
