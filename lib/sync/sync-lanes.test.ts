/**
 * Two files synced at once (file-lanes.ts, sync-folders.ts): files that hold the same session
 * still make one session, as one after the other; the events still come in file order.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadEntries } from "@/lib/db";
import { getDb } from "@/lib/db/client";
import { generateSessionJsonl } from "@/test/generators/session";
import { useTestDatabase } from "@/test/db";
import { type SyncEvent, syncFolders } from "./sync-folders";

useTestDatabase();

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "arbor-sync-lanes-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("two files synced at once", () => {
  it("copies of one session file make one session, the later files adopted, with their events in file order", async () => {
    // Large enough that both imports are under way before either commits.
    const text = generateSessionJsonl({ seed: 36, entries: 3000 });
    const lines = text.split("\n").filter((l) => l !== "");
    const sessionId = (JSON.parse(lines[0]!) as { id: string }).id;
    const names = ["a.jsonl", "b.jsonl", "c.jsonl"];
    for (const name of names) writeFileSync(path.join(dir, name), text);
    const other = generateSessionJsonl({ seed: 37, entries: 50 });
    writeFileSync(path.join(dir, "d.jsonl"), other);

    const events: SyncEvent[] = [];
    const r = await syncFolders([dir], { settleMs: 0, onEvent: (e) => events.push(e) });
    const outcomes = r.files.map((f) => [path.basename(f.file), f.outcome] as const);
    expect(outcomes.map(([name]) => name)).toEqual([...names, "d.jsonl"]);
    // a and b start together, so either may write the session first (the other then waits, loses
    // and is synced again alone); c starts once one of them is done. One import, two adoptions.
    const copies = outcomes.slice(0, 3).map(([, o]) => o);
    const whole = copies.filter((o) => !("adopted" in o));
    expect(whole).toEqual([expect.objectContaining({ kind: "imported", sessionId, entries: lines.length - 1 })]);
    expect(copies[2]).toMatchObject({ kind: "imported", adopted: true, sessionId });
    for (const o of copies) if (o !== whole[0]) expect(o).toMatchObject({ kind: "imported", adopted: true, sessionId });
    expect(outcomes[3]![1]).toMatchObject({ kind: "imported", entries: other.split("\n").filter((l) => l !== "").length - 1 });
    // One session for the three copies, whole.
    const sessions = await getDb().session.count({ where: { deletedAt: null } });
    expect(sessions).toBe(2);
    expect((await loadEntries({ sessionId })).length).toBe(lines.length - 1);

    // Events: `start`, then per file its progress, then its `file` event, file after file.
    expect(events[0]!.type).toBe("start");
    let index = -1;
    for (const e of events.slice(1)) {
      if (e.type === "start") throw new Error("a second start event");
      expect(e.index).toBeGreaterThanOrEqual(index);
      if (e.type === "progress") expect(e.index).toBeGreaterThan(index);
      if (e.type === "file") index = e.index;
    }
    expect(events.filter((e) => e.type === "file").map((e) => e.type === "file" && path.basename(e.file))).toEqual([...names, "d.jsonl"]);
  });
});
