/**
 * Folder sync never reads outside the folders it syncs (docs/formats.md "Sync"): every file, a
 * listed link included, is checked by its real path (symlinks resolved) each time it is opened, so a `*.jsonl` link that appears while a watching sync runs, or a tracked file
 * replaced by a link, is refused with a per-file error and nothing of the outside file is read.
 */
import { appendFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadEntries } from "@/lib/db";
import { getDb } from "@/lib/db/client";
import { generateClaudeCodeSession } from "@/test/generators/claude-code";
import { useTestDatabase } from "@/test/db";
import { type SyncEvent, syncFolders } from "./sync-folders";
import { watchFolders } from "./watch";

useTestDatabase();

const REFUSED = /a link to a file outside the synced folders: not read/;

let dir = "";
let outside = "";
beforeEach(() => {
  dir = realpathSync(mkdtempSync(path.join(tmpdir(), "arbor-sync-links-")));
  outside = realpathSync(mkdtempSync(path.join(tmpdir(), "arbor-sync-outside-")));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

async function sessionExists(id: string): Promise<boolean> {
  return (await getDb().session.count({ where: { id } })) > 0;
}

/** A session file outside the synced folder, quiet for a minute (nothing held back). */
function outsideFile(seed: number): { file: string; sessionId: string } {
  const gen = generateClaudeCodeSession({ seed, turns: 3 });
  const file = path.join(outside, `secret-${seed}.jsonl`);
  writeFileSync(file, gen.text);
  const old = new Date(Date.now() - 60_000);
  utimesSync(file, old, old);
  return { file, sessionId: gen.sessionId };
}

describe("links out of a synced folder", () => {
  it("a *.jsonl link created while a watching sync runs is refused, and the outside file is not imported", async () => {
    const target = outsideFile(71);
    const events: SyncEvent[] = [];
    const watcher = await watchFolders([dir], { debounceMs: 50, settleMs: 0, onEvent: (e) => events.push(e) });
    try {
      await watcher.ready;
      const link = path.join(dir, "sub", "stolen.jsonl");
      mkdirSync(path.dirname(link));
      symlinkSync(target.file, link);
      const started = Date.now();
      while (!events.some((e) => e.type === "file" && e.file === link) && Date.now() - started < 10_000) await new Promise((r) => setTimeout(r, 50));
      const seen = events.find((e) => e.type === "file" && e.file === link);
      expect(seen?.type === "file" && seen.outcome).toEqual({ kind: "failed", message: expect.stringMatching(REFUSED) });
      if (seen?.type === "file" && seen.outcome.kind === "failed") expect(seen.outcome.message).toContain("stolen.jsonl");
    } finally {
      await watcher.stop();
    }
    expect(await sessionExists(target.sessionId)).toBe(false);
  });

  it("a tracked file replaced by a link to an outside file gets none of its lines appended", async () => {
    const gen = generateClaudeCodeSession({ seed: 72, turns: 4 });
    const lines = gen.text.split("\n").filter((l) => l !== "");
    const half = Math.floor(lines.length / 2);
    const file = path.join(dir, "tracked.jsonl");
    writeFileSync(file, `${lines.slice(0, half).join("\n")}\n`);
    const first = await syncFolders([dir], { settleMs: 0 });
    expect(first.files[0]?.outcome.kind).toBe("imported");
    const before = await loadEntries({ sessionId: gen.sessionId });

    // Outside: the same start and more lines, so an append would take them.
    const target = path.join(outside, "grown.jsonl");
    writeFileSync(target, `${lines.slice(0, half).join("\n")}\n`);
    appendFileSync(target, `${lines.slice(half).join("\n")}\n`);
    rmSync(file);
    symlinkSync(target, file);
    const second = await syncFolders([dir], { settleMs: 0 });
    expect(second.files).toEqual([{ file, outcome: { kind: "failed", message: expect.stringMatching(REFUSED) } }]);
    expect(await loadEntries({ sessionId: gen.sessionId })).toEqual(before);
  });

  it("a dangling link is refused with the same words (it does not tell whether its target exists)", async () => {
    const link = path.join(dir, "nowhere.jsonl");
    symlinkSync(path.join(outside, "does-not-exist.jsonl"), link);
    // A change names it, as a watcher would.
    const r = await syncFolders([dir], { settleMs: 0, only: new Set([link]) });
    expect(r.files).toEqual([{ file: link, outcome: { kind: "failed", message: expect.stringMatching(REFUSED) } }]);
  });

  it("a link that stays inside the synced folder is still synced", async () => {
    const gen = generateClaudeCodeSession({ seed: 73, turns: 3 });
    const real = path.join(dir, "real");
    mkdirSync(real);
    writeFileSync(path.join(real, "a.txt"), gen.text);
    const link = path.join(dir, "inside.jsonl");
    symlinkSync(path.join(real, "a.txt"), link);
    const r = await syncFolders([dir], { settleMs: 0, only: new Set([link]) });
    expect(r.files[0]?.outcome).toMatchObject({ kind: "imported", sessionId: gen.sessionId });
  });
});
