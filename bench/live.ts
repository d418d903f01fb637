/**
 * `live` section (docs/benchmarks.md): an agent appends a line to a session file the app follows;
 * how long until the open page has it? Measured end to end, in process, on the real pieces: the
 * app's own folder watcher (lib/sync/app-sync.ts: the watch lock, fs.watch, the debounce, the
 * append's commit and its NOTIFY), the session's change notifications as the SSE route
 * (app/api/sessions/[id]/events) hands them to the page (lib/runs watchSession), and the delta the
 * page then fetches (the skeleton route's `?since=` payload, from the read model). Only the HTTP
 * framing is left out: the route modules need Next's runtime, which the bench does not start. The figure is
 * the p95 of 20 appends, from the file's write to the delta holding the new entry; the baseline
 * is the same page's delta fetch alone (what is left when nothing waits on the file system).
 * Target: ≤ 1 s.
 */
import { appendFileSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { readLiveSession } from "@/lib/db";
import { closeRunChannel, watchSession } from "@/lib/runs";
import { skeletonPayload } from "@/lib/session-view/server";
import { startAppSync } from "@/lib/sync/app-sync";
import { generateSessionJsonl } from "@/test/generators/session";
import { addRow, formatMs, median } from "./lib/stats";

const APPENDS = 20;

function p95(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)] ?? Number.NaN;
}

/** The entry count of the delta the page fetches (`?since=`), its JSON text made as the route makes it. */
async function skeletonCount(id: string, since: number): Promise<number> {
  const view = await readLiveSession({ sessionId: id });
  if (!view) throw new Error(`live: session ${id} not found`);
  return (JSON.parse(JSON.stringify(skeletonPayload(view, since))) as { count: number }).count;
}

/** The session's change events, one at a time, as the SSE route sends them. */
async function changes(id: string): Promise<{ next(ms: number): Promise<void>; stop(): void }> {
  const queue: number[] = [];
  let wake: () => void = () => undefined;
  const stop = await watchSession(id, () => {
    queue.push(Date.now());
    wake();
  });
  return {
    stop,
    next: (ms) =>
      new Promise<void>((resolve, reject) => {
        if (queue.shift() !== undefined) return resolve();
        const timer = setTimeout(() => reject(new Error("live: no change event in time")), ms);
        wake = () => {
          clearTimeout(timer);
          queue.shift();
          wake = () => undefined;
          resolve();
        };
      }),
  };
}

export async function liveBench(): Promise<void> {
  console.log(`\nlive: an appended line, from the file's write to the open page's delta (p95 of ${APPENDS})`);
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), "arbor-bench-live-")));
  const text = generateSessionJsonl({ seed: 4242, entries: 200 });
  const lines = text.split("\n").filter((l) => l !== "");
  const header = JSON.parse(lines[0]!) as { id: string };
  let last = JSON.parse(lines.at(-1)!) as { id: string; timestamp: string };
  const file = path.join(dir, "live.jsonl");
  writeFileSync(file, text);
  let ready: () => void = () => undefined;
  const imported = new Promise<void>((r) => {
    ready = r;
  });
  const sync = startAppSync({ folders: async () => [dir], onRun: () => ready() });
  let events: Awaited<ReturnType<typeof changes>> | undefined;
  try {
    await imported;
    events = await changes(header.id);
    let count = await skeletonCount(header.id, 0);
    const times: number[] = [];
    const fetchOnly: number[] = [];
    for (let i = 0; i < APPENDS; i++) {
      const entry = { type: "message", id: `live${String(i).padStart(4, "0")}`, parentId: last.id, timestamp: new Date().toISOString(), message: { role: "user", content: `live line ${i}`, timestamp: Date.now() } };
      const start = performance.now();
      appendFileSync(file, `${JSON.stringify(entry)}\n`);
      // As the page does: on each change event fetch the delta, until it holds the new entry.
      for (;;) {
        await events.next(10_000);
        const t = performance.now();
        const now = await skeletonCount(header.id, count);
        fetchOnly.push(performance.now() - t);
        if (now > count) {
          count = now;
          break;
        }
      }
      times.push(performance.now() - start);
      last = entry;
      // An agent writes a line now and then, not back to back.
      await new Promise((r) => setTimeout(r, 300));
    }
    addRow({
      section: "live",
      name: "appended line → open page's delta",
      n: `${APPENDS} appends`,
      value: `${formatMs(p95(times))} p95`,
      baseline: `delta fetch ${formatMs(median(fetchOnly))}`,
      ratio: p95(times) / median(fetchOnly),
      note: `median ${formatMs(median(times))}; target ≤ 1 s (p95); watcher debounce included`,
    });
  } finally {
    events?.stop();
    await sync.stop();
    // Before the bench database is dropped under it.
    await closeRunChannel();
    rmSync(dir, { recursive: true, force: true });
  }
}
