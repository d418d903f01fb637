/**
 * Sync at scale, resumable (docs/formats.md "Sync"): a generated folder of a few hundred session
 * files in nested folders is synced, cancelled part-way, resumed; then synced by a real CLI
 * process that is killed mid-sync (SIGKILL, no clean-up), and resumed. Each time: every file's
 * session holds exactly the entries its lines say (counted here from the raw file), and no file
 * is imported twice (one live session per file, no copies or versions).
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { generateSessionJsonl } from "@/test/generators/session";
import { useTestDatabase } from "@/test/db";
import { type SyncEvent, syncFolders } from "./sync-folders";

const db = useTestDatabase();
const FILES = 200;

let dir = "";
beforeEach(() => {
  dir = realpathSync(mkdtempSync(path.join(tmpdir(), "arbor-sync-scale-")));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Writes FILES pi files (3–40 entries) in 12 project folders; returns each file's session id and entry count, from its own lines. */
function writeFolder(seed: number): Map<string, number> {
  const expected = new Map<string, number>();
  for (let i = 0; i < FILES; i++) {
    const text = generateSessionJsonl({ seed: seed + i, entries: 3 + ((i * 7) % 38) });
    const lines = text.split("\n").filter((l) => l !== "");
    const header = JSON.parse(lines[0]!) as { type: string; id: string };
    expect(header.type).toBe("session");
    expect(expected.has(header.id)).toBe(false);
    expected.set(header.id, lines.length - 1);
    const sub = path.join(dir, `project-${i % 12}`);
    mkdirSync(sub, { recursive: true });
    writeFileSync(path.join(sub, `${String(i).padStart(4, "0")}.jsonl`), text);
  }
  return expected;
}

/** The live sessions of `expected`'s files: entry count by id; and how many sessions anywhere are a copy or a new version. */
async function stored(expected: Map<string, number>): Promise<{ counts: Map<string, number>; twins: number; total: number }> {
  const rows = await getDb().session.findMany({ where: { deletedAt: null }, select: { id: true, entryCount: true, title: true } });
  const mine = rows.filter((r) => expected.has(r.id));
  return {
    counts: new Map(mine.map((r) => [r.id, r.entryCount])),
    twins: rows.filter((r) => / \((copy|version \d+)\)$/.test(r.title ?? "")).length,
    total: mine.length,
  };
}

/** What was stored matches what the files say, for the sessions stored so far (all of them with `complete`). */
async function expectIntact(expected: Map<string, number>, complete: boolean): Promise<number> {
  const s = await stored(expected);
  expect(s.twins).toBe(0);
  for (const [id, n] of s.counts) expect(n, `session ${id}`).toBe(expected.get(id));
  if (complete) expect(s.counts).toEqual(expected);
  return s.total;
}

describe("syncing a few hundred files", () => {
  it("a cancelled sync leaves whole sessions; resuming skips them and imports the rest once", async () => {
    const expected = writeFolder(40_000);
    const controller = new AbortController();
    let done = 0;
    const onEvent = (e: SyncEvent) => {
      if (e.type === "file" && e.outcome.kind === "imported" && ++done === 100) controller.abort(new Error("cancelled by the user"));
    };
    await expect(syncFolders([dir], { signal: controller.signal, onEvent, settleMs: 0 })).rejects.toThrow("cancelled by the user");
    // Files are synced two at a time: the one beside the 100th may have finished too, and is reported then.
    expect(done).toBeGreaterThanOrEqual(100);
    expect(done).toBeLessThanOrEqual(101);
    expect(await expectIntact(expected, false)).toBe(done);

    const events: SyncEvent[] = [];
    const resumed = await syncFolders([dir], { onEvent: (e) => events.push(e), settleMs: 0 });
    expect(resumed.counts).toMatchObject({ unchanged: done, imported: FILES - done, failed: 0, rewritten: 0 });
    const start = events[0];
    expect(start).toMatchObject({ type: "start", files: FILES });
    // The overall bytes: the sum of the files' sizes, as each file's event reports it.
    const sizes = events.flatMap((e) => (e.type === "file" ? [e.bytes] : []));
    expect(sizes).toHaveLength(FILES);
    expect(start?.type === "start" && start.bytes).toBe(sizes.reduce((a, b) => a + b, 0));
    await expectIntact(expected, true);
  }, 120_000);

  it("a CLI sync killed mid-sync is resumed by the next sync: nothing lost, nothing twice", async () => {
    const expected = writeFolder(50_000);
    const tsx = createRequire(import.meta.url).resolve("tsx/cli");
    const child = spawn(process.execPath, [tsx, "--conditions=react-server", "cli/main.ts", "sync", dir], {
      env: { ...process.env, DATABASE_URL: db.url },
      stdio: "ignore",
    });
    const exited = new Promise((r) => child.once("exit", r));
    // Killed once it has imported a good part, while it is importing the rest.
    for (let i = 0; (await stored(expected)).total < 60; i++) {
      expect(child.exitCode, "the CLI ended before it was killed").toBeNull();
      expect(i, "the CLI imported too slowly").toBeLessThan(600);
      await new Promise((r) => setTimeout(r, 100));
    }
    child.kill("SIGKILL");
    await exited;
    const before = await expectIntact(expected, false);
    expect(before).toBeGreaterThanOrEqual(60);
    expect(before).toBeLessThan(FILES);

    const resumed = await syncFolders([dir], { settleMs: 0 });
    expect(resumed.counts.failed).toBe(0);
    expect(resumed.counts.imported).toBe(FILES - resumed.counts.unchanged);
    expect(resumed.counts.unchanged).toBeGreaterThanOrEqual(before - 1);
    await expectIntact(expected, true);
  }, 180_000);
});
