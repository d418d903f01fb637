/**
 * Export → import round trips: the same entries, ids, order and leaf; the export is a v3 file the
 * engine (and so pi / oh-my-pi) loads.
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generateSession } from "@/test/generators/session";
import { serializeSession } from "@/lib/session/file/jsonl";
import { loadSession } from "@/lib/session/file/load";
import type { SessionEntry } from "@/lib/session/types";
import { useTestDatabase } from "@/test/db";
import { hasFixtures, LARGE_SESSION } from "@/test/fixtures";
import { branch, exportSession, getSessionMeta, importSession, loadEntries, NotFoundError, resetLeaf } from "..";

useTestDatabase();

async function exportText(sessionId: string): Promise<string> {
  const exp = await exportSession({ sessionId, batchSize: 250 });
  let text = "";
  for await (const line of exp.lines()) text += line;
  return text;
}

async function* bytesOf(text: string): AsyncGenerator<Uint8Array> {
  yield new TextEncoder().encode(text);
}

/** Exports `sessionId`, imports the file as a copy and checks the copy is the same session. */
async function roundTrip(sessionId: string): Promise<{ text: string; copyId: string }> {
  const original = await loadEntries({ sessionId });
  const meta = await getSessionMeta({ id: sessionId });
  const text = await exportText(sessionId);
  const copy = await importSession({ source: bytesOf(text), fileName: "export.jsonl", asCopy: true });
  expect(copy.skipped).toEqual([]);
  expect(copy.migrated).toBe(false);
  const again = await loadEntries({ sessionId: copy.sessionId });
  expect(again.map((e) => e.id)).toEqual(original.map((e) => e.id));
  expect(again).toEqual(original);
  expect((await getSessionMeta({ id: copy.sessionId })).leafId).toBe(meta.leafId);
  return { text, copyId: copy.sessionId };
}

describe.skipIf(!hasFixtures)("the large fixture", () => {
  it("imports in well under a second and round-trips through export", async () => {
    await getSessionMeta({ id: "warm-up" }).catch(() => undefined); // connect first: time the import only
    const started = performance.now();
    const r = await importSession({ source: LARGE_SESSION });
    const ms = performance.now() - started;
    console.info(`import of ${path.basename(LARGE_SESSION)} (${r.bytes} bytes, ${r.entryCount} entries): ${ms.toFixed(0)} ms`);
    expect(r).toMatchObject({ migrated: true, fromVersion: 1, skippedCount: 0 });
    // A loose guard only: the test machine is shared. bench/import-memory.ts measures it properly.
    expect(ms).toBeLessThan(10_000);

    const { text } = await roundTrip(r.sessionId);
    // The engine loads the export as a v3 file: no migration, same entries, leaf = last entry.
    const loaded = loadSession(text);
    expect(loaded.migrated).toBe(false);
    expect(loaded.header.version).toBe(3);
    expect(loaded.skipped).toEqual([]);
    expect(loaded.entries).toEqual(await loadEntries({ sessionId: r.sessionId }));
    expect(loaded.header).not.toHaveProperty("arborLeafId");
  });
});

describe("generated sessions with side branches", () => {
  it("round-trips a session whose leaf is not the last entry (arborLeafId)", async () => {
    const generated = generateSession({ seed: 7, entries: 1500, branches: 4, labels: 6, compactions: true });
    const dir = await mkdtemp(path.join(tmpdir(), "arbor-export-"));
    const file = path.join(dir, "generated.jsonl");
    await writeFile(file, serializeSession(generated.header, generated.entries));
    const r = await importSession({ source: file });
    expect(await loadEntries({ sessionId: r.sessionId })).toEqual(generated.entries);

    // Move the leaf to a side branch: an entry in the middle of the file.
    const middle = generated.entries[700] as SessionEntry;
    await branch({ sessionId: r.sessionId, expectedLeafId: r.leafId, targetId: middle.id });
    const { text } = await roundTrip(r.sessionId);
    const headerLine = JSON.parse(text.slice(0, text.indexOf("\n"))) as Record<string, unknown>;
    expect(headerLine).toMatchObject({ type: "session", version: 3, id: r.sessionId, arborLeafId: middle.id });
    // pi ignores the extra field and resumes at the last entry, as it always does.
    const loaded = loadSession(text);
    expect(loaded.entries).toEqual(generated.entries);
    expect(loaded.tree.getLeafId()).toBe(generated.entries.at(-1)!.id);
  });

  it("keeps a reset leaf (null) through export and import", async () => {
    const generated = generateSession({ seed: 3, entries: 40 });
    const r = await importSession({ source: bytesOf(serializeSession(generated.header, generated.entries)) });
    await resetLeaf({ sessionId: r.sessionId, expectedLeafId: r.leafId });
    const { text } = await roundTrip(r.sessionId);
    expect(JSON.parse(text.slice(0, text.indexOf("\n")))).toMatchObject({ arborLeafId: null });
  });

  it("names the download after the header timestamp, streams bytes, and 404s unknown sessions", async () => {
    const generated = generateSession({ seed: 11, entries: 30, startTime: "2025-03-04T05:06:07.890Z" });
    const r = await importSession({ source: bytesOf(serializeSession(generated.header, generated.entries)) });
    const exp = await exportSession({ sessionId: r.sessionId });
    expect(exp.fileName).toBe(`2025-03-04T05-06-07-890Z_${r.sessionId}.jsonl`);
    expect(exp.entryCount).toBe(30);
    const body = await new Response(exp.stream()).text();
    const lines = body.split("\n");
    expect(lines.at(-1)).toBe(""); // ends with "\n" (session-engine.md §1.1)
    expect(JSON.parse(lines[0]!)).toEqual(generated.header);
    expect(lines.slice(1, -1).map((l) => JSON.parse(l))).toEqual(generated.entries);
    expect(Object.keys(JSON.parse(lines[1]!)).slice(0, 4)).toEqual(["type", "id", "parentId", "timestamp"]);
    await expect(exportSession({ sessionId: "nope" })).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe("pins (docs/session-engine.md §19)", () => {
  it("import and export keep pin entries and a compaction's pinnedEntryIds verbatim", async () => {
    const ts = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
    const user = (id: string, parentId: string | null, text: string, s: number) =>
      ({ type: "message", id, parentId, timestamp: ts(s), message: { role: "user", content: text, timestamp: Date.parse(ts(s)) } }) as SessionEntry;
    const entries: SessionEntry[] = [
      user("aa000001", null, "Keep the API stable.", 1),
      { type: "custom", customType: "arbor.pin", data: { targetId: "aa000001", pinned: true }, id: "aa000002", parentId: "aa000001", timestamp: ts(2) } as SessionEntry,
      user("aa000003", "aa000002", "Next.", 3),
      { type: "compaction", id: "aa000004", parentId: "aa000003", timestamp: ts(4), summary: "S", firstKeptEntryId: "aa000003", tokensBefore: 10, pinnedEntryIds: ["aa000001"] } as SessionEntry,
    ];
    const r = await importSession({ source: bytesOf(serializeSession({ type: "session", version: 3, id: "pins", timestamp: ts(0), cwd: "/work" }, entries)), fileName: "pins.jsonl" });
    expect(await loadEntries({ sessionId: r.sessionId })).toEqual(entries);
    const { text } = await roundTrip(r.sessionId);
    expect(loadSession(text).entries).toEqual(entries);
  });
});
