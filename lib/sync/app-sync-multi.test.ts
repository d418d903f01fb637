/**
 * The app keeps the consented folders in sync by itself, with ONE watcher per database
 * (lib/sync/app-sync.ts): two real app processes (test/app-sync-worker.ts) on this file's
 * database; only one watches, a file written to the folder is imported once; when the watching
 * process is killed the other takes over, and a folder allowed in the database meanwhile is
 * watched too. Counts come from the files written here.
 */
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allowRoots } from "@/lib/db";
import { getDb } from "@/lib/db/client";
import { generateSessionJsonl } from "@/test/generators/session";
import { useTestDatabase } from "@/test/db";
import { startWatcherProcess, type WatcherEvent, type WatcherProcess } from "@/test/app-sync-worker-client";

const db = useTestDatabase();
let folder = "";
let later = "";
let a: WatcherProcess | undefined;
let b: WatcherProcess | undefined;

beforeAll(() => {
  folder = realpathSync(mkdtempSync(path.join(tmpdir(), "arbor-app-sync-")));
  later = realpathSync(mkdtempSync(path.join(tmpdir(), "arbor-app-sync-later-")));
});
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
  rmSync(folder, { recursive: true, force: true });
  rmSync(later, { recursive: true, force: true });
});

/** A pi session file of `entries` entries (its lines minus the header). */
function writePi(dir: string, name: string, seed: number, entries: number): string {
  const text = generateSessionJsonl({ seed, entries });
  expect(text.trim().split("\n").length - 1).toBe(entries);
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

async function sessionsBySource(): Promise<Map<string, number>> {
  const rows = await getDb().session.findMany({ select: { id: true, entryCount: true, deletedAt: true } });
  return new Map(rows.filter((r) => r.deletedAt === null).map((r) => [r.id, r.entryCount]));
}

async function waitFor<T>(fn: () => Promise<T | undefined>, what: string, withinMs = 20_000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() - start > withinMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const watching = (e: WatcherEvent) => e.event === "watching" && e.folders !== null;

describe("the app's own folder sync across processes", () => {
  it("one of two processes watches; the other takes over when it dies; nothing is imported twice", async () => {
    writePi(folder, "one.jsonl", 101, 12);
    writePi(folder, "two.jsonl", 102, 7);
    const env = { DATABASE_URL: db.url, ARBOR_ALLOWED_ROOTS: folder };
    [a, b] = await Promise.all([startWatcherProcess(env), startWatcherProcess(env)]);
    const pair = [a, b];
    const first = await waitFor(async () => pair.find((p) => p.events.some(watching)), "a watcher");
    const other = first === a ? b : a;
    expect((await first.next(watching)) as { folders: string[] }).toMatchObject({ folders: [folder] });
    // The first full sync imports both files, once.
    await first.next((e) => e.event === "run" && e.counts.imported === 2);
    // Several polls later the other process still does not watch.
    await new Promise((r) => setTimeout(r, 1_000));
    expect(other.events.some(watching)).toBe(false);
    expect([...(await sessionsBySource()).values()].sort((x, y) => x - y)).toEqual([7, 12]);

    // A file an agent writes now is imported by the watcher.
    writePi(folder, "three.jsonl", 103, 5);
    await waitFor(async () => ((await sessionsBySource()).size === 3 ? true : undefined), "the third session");

    // The watcher dies (no clean-up): the other process takes the lock and watches the folder.
    await first.kill();
    const started = Date.now();
    await other.next(watching, 10_000);
    expect(Date.now() - started).toBeLessThan(5_000);
    // Its first full sync finds everything already in Arbor.
    const run = (await other.next((e) => e.event === "run")) as { counts: Record<string, number> };
    expect(run.counts).toMatchObject({ imported: 0, unchanged: 3, failed: 0 });

    // A folder the user allows now (the first start's consent, in the database) is watched too.
    writePi(later, "four.jsonl", 104, 9);
    await allowRoots([later]);
    const again = (await other.next(watching)) as { folders: string[] };
    expect(again.folders).toEqual([folder, later].sort());
    const counts = await waitFor(async () => {
      const s = await sessionsBySource();
      return s.size === 4 ? [...s.values()].sort((x, y) => x - y) : undefined;
    }, "the fourth session");
    expect(counts).toEqual([5, 7, 9, 12]);
    if (first === a) a = undefined;
    else b = undefined;
  }, 90_000);
});
