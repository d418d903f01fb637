/**
 * Bad input while a folder syncs (docs/formats.md "Sync"): a file deleted mid-sync, a file
 * replaced by a folder, a symbolic link loop, a folder without permission, a file growing while
 * it is read. Each is a per-file error naming the file and what is wrong (or, for the growing
 * file, no error at all: its whole lines now, the rest on the next sync); the other files sync.
 * Counts come from the generated files' own lines.
 */
import { appendFileSync, chmodSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { generateSessionJsonl } from "@/test/generators/session";
import { useTestDatabase } from "@/test/db";
import { describeOutcome, type SyncEvent, syncFolders } from "./sync-folders";

useTestDatabase();

let dir = "";
beforeEach(() => {
  dir = realpathSync(mkdtempSync(path.join(tmpdir(), "arbor-sync-bad-")));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

let seed = 91_000;
/** A pi file of `entries` entries; returns its path, session id and the entries its lines hold. */
function pi(rel: string, entries: number): { file: string; id: string; entries: number } {
  const text = generateSessionJsonl({ seed: seed++, entries });
  const lines = text.split("\n").filter((l) => l !== "");
  const file = path.join(dir, rel);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return { file, id: (JSON.parse(lines[0]!) as { id: string }).id, entries: lines.length - 1 };
}

async function entryCount(id: string): Promise<number | undefined> {
  return (await getDb().session.findUnique({ where: { id }, select: { entryCount: true } }))?.entryCount;
}

function outcomeOf(r: Awaited<ReturnType<typeof syncFolders>>, file: string) {
  return r.files.find((f) => f.file === file)?.outcome;
}

describe("bad input during a sync: per-file errors, the rest continues", () => {
  it("a file deleted after the folder was listed", async () => {
    const a = pi("a.jsonl", 5);
    const b = pi("b.jsonl", 6);
    const c = pi("c.jsonl", 7);
    // After the listing (the `start` event), before any file is read (files are synced two at a time).
    const onEvent = (e: SyncEvent) => {
      if (e.type === "start") unlinkSync(b.file);
    };
    const r = await syncFolders([dir], { onEvent, settleMs: 0 });
    const deleted = outcomeOf(r, b.file);
    expect(deleted).toEqual({ kind: "failed", message: `${b.file}: the file was deleted before it could be read` });
    // Beside the file's path (the CLI's line, the page's row) the words do not name it twice.
    expect(deleted && describeOutcome(deleted, b.file)).toBe("error: the file was deleted before it could be read");
    expect(r.counts).toMatchObject({ imported: 2, failed: 1 });
    expect([await entryCount(a.id), await entryCount(c.id)]).toEqual([a.entries, c.entries]);
  });

  it("a file replaced by a folder, before its first sync and after it", async () => {
    const a = pi("a.jsonl", 5);
    const b = pi("b.jsonl", 6);
    const c = pi("c.jsonl", 7);
    const replace = (file: string) => {
      unlinkSync(file);
      mkdirSync(file);
    };
    const r = await syncFolders([dir], { onEvent: (e) => e.type === "start" && replace(b.file), settleMs: 0 });
    const folderNow = { kind: "failed", message: `${b.file}: this is a folder now, not a session file` };
    expect(outcomeOf(r, b.file)).toEqual(folderNow);
    expect([await entryCount(a.id), await entryCount(c.id)]).toEqual([a.entries, c.entries]);
    // A tracked file replaced by a folder: its session stays, the error names it.
    replace(c.file);
    const again = await syncFolders([dir], { only: new Set([c.file]), settleMs: 0 });
    expect(outcomeOf(again, c.file)).toEqual({ kind: "failed", message: `${c.file}: this is a folder now, not a session file` });
    expect(await entryCount(c.id)).toBe(c.entries);
  });

  it("a symbolic link loop is an error for that link; a link back to a parent folder is not followed", async () => {
    const a = pi("project/a.jsonl", 5);
    const loop = path.join(dir, "project", "loop.jsonl");
    symlinkSync(loop, loop);
    symlinkSync(dir, path.join(dir, "project", "back"));
    const r = await syncFolders([dir], { settleMs: 0 });
    expect(r.files.map((f) => f.file).sort()).toEqual([a.file, loop]);
    expect(outcomeOf(r, loop)).toEqual({ kind: "failed", message: `${loop}: a symbolic link loop: the link leads back to itself, never to a file` });
    expect(await entryCount(a.id)).toBe(a.entries);
  });

  const root = process.getuid?.() === 0;
  it.skipIf(root)("a folder without permission is an error naming it; the other folders sync (skipped as root: root may read every folder)", async () => {
    const a = pi("open/a.jsonl", 5);
    pi("locked/b.jsonl", 6);
    const locked = path.join(dir, "locked");
    chmodSync(locked, 0o000);
    try {
      const r = await syncFolders([dir], { settleMs: 0 });
      expect(outcomeOf(r, locked)).toEqual({ kind: "failed", message: expect.stringContaining(`${locked}: this folder cannot be listed: permission denied`) });
      expect(await entryCount(a.id)).toBe(a.entries);
    } finally {
      chmodSync(locked, 0o755);
    }
  });

  it("a file growing while it is read: its whole lines are imported, the lines written meanwhile on the next sync", async () => {
    const big = pi("big.jsonl", 4_000);
    // Lines an agent appends while the import reads: entries continuing the file's last one.
    const lines = readFileSync(big.file, "utf8").split("\n").filter((l) => l !== "");
    const last = JSON.parse(lines.at(-1)!) as { id: string; timestamp: string };
    const added = Array.from({ length: 25 }, (_, i) => ({
      type: "message",
      id: `grow${String(i).padStart(4, "0")}`,
      parentId: i === 0 ? last.id : `grow${String(i - 1).padStart(4, "0")}`,
      timestamp: last.timestamp,
      message: { role: "user", content: `appended while reading ${i}`, timestamp: Date.parse(last.timestamp) },
    }));
    let grew = false;
    const onEvent = (e: SyncEvent) => {
      if (e.type === "progress" && e.file === big.file && !grew) {
        grew = true;
        appendFileSync(big.file, `${added.map((x) => JSON.stringify(x)).join("\n")}\n`);
      }
    };
    const r = await syncFolders([dir], { onEvent, settleMs: 0 });
    expect(grew).toBe(true);
    expect(outcomeOf(r, big.file)).toMatchObject({ kind: "imported", entries: big.entries });
    const next = await syncFolders([dir], { settleMs: 0 });
    expect(outcomeOf(next, big.file)).toMatchObject({ kind: "appended", added: added.length });
    expect(await entryCount(big.id)).toBe(big.entries + added.length);
  });
});
