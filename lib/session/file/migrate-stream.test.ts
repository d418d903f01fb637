/** The streaming migrator gives exactly what migrateToCurrentVersion gives (session-engine.md §1.7). */
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { parseSessionText } from "@/lib/session/file/jsonl";
import { createStreamMigrator } from "@/lib/session/file/migrate-stream";
import { migrateToCurrentVersion } from "@/lib/session/file/migrations";
import type { FileEntry, SessionEntry, SessionHeader } from "@/lib/session/types";
import { hasFixtures, LARGE_SESSION } from "@/test/fixtures";

/** crypto.randomUUID made deterministic, so both migrations draw the same ids. */
function deterministicUuids() {
  let n = 0;
  return vi.spyOn(globalThis.crypto, "randomUUID").mockImplementation(() => {
    n += 1;
    return `00000000-0000-4000-8000-${n.toString(16).padStart(12, "0")}` as `${string}-${string}-${string}-${string}-${string}`;
  });
}

afterEach(() => vi.restoreAllMocks());

function both(header: SessionHeader, entries: Record<string, unknown>[]) {
  const batchFile = structuredClone([header, ...entries]) as FileEntry[];
  let spy = deterministicUuids();
  const batchChanged = migrateToCurrentVersion(batchFile);
  spy.mockRestore();

  spy = deterministicUuids();
  const original = structuredClone(header);
  const migrator = createStreamMigrator(original);
  const streamed = structuredClone(entries).map((e) => migrator.migrate(e));
  spy.mockRestore();
  return {
    batch: { header: batchFile[0], entries: batchFile.slice(1), changed: batchChanged },
    stream: { header: migrator.header, entries: streamed, changed: migrator.changed },
    original,
  };
}

const v1Header: SessionHeader = { type: "session", id: "s-v1", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/w", provider: "anthropic" };
const at = (i: number) => new Date(Date.UTC(2025, 0, 1, 0, 0, i)).toISOString();
const user = (text: string, i: number) => ({ type: "message", timestamp: at(i), message: { role: "user", content: text, timestamp: i } });

describe("createStreamMigrator (session-engine.md §1.7)", () => {
  it.skipIf(!hasFixtures)("migrates the v1 fixture exactly like migrateToCurrentVersion", () => {
    const parsed = parseSessionText(readFileSync(LARGE_SESSION, "utf8"));
    expect(parsed.header?.version ?? 1).toBe(1);
    const { batch, stream } = both(parsed.header!, parsed.entries);
    expect(stream.changed).toBe(true);
    expect(stream.header).toEqual(batch.header);
    expect(stream.entries).toEqual(batch.entries);
    expect(stream.entries.every((e) => /^[0-9a-f]{8}$/.test(e.id))).toBe(true);
  });

  it("resolves v1 firstKeptEntryIndex counting the header as position 0, like the batch migration", () => {
    const compaction = (index: unknown, i: number) => ({ type: "compaction", timestamp: at(i), summary: "S", tokensBefore: 10, firstKeptEntryIndex: index });
    const entries = [
      user("one", 1),
      user("two", 2),
      compaction(2, 3), // → the second entry
      compaction(0, 4), // the header: unresolved
      compaction(5, 5), // itself
      compaction(9, 6), // a later entry: unresolved
      compaction("2", 7), // not a number: unresolved
      { type: "message", timestamp: at(8), message: { role: "hookMessage", customType: "x", content: "hi", display: true, timestamp: 8 } },
    ];
    const { batch, stream, original } = both(v1Header, entries);
    expect(stream.entries).toEqual(batch.entries);
    expect(stream.header).toEqual(batch.header);
    expect(stream.header.version).toBe(3);
    expect(original.version).toBeUndefined(); // the caller's header is not changed
    const e = stream.entries as (SessionEntry & Record<string, unknown>)[];
    expect(e[2]!.firstKeptEntryId).toBe(e[1]!.id);
    expect(e[3]!.firstKeptEntryId).toBeUndefined();
    expect(e[4]!.firstKeptEntryId).toBe(e[4]!.id);
    expect(e[5]!.firstKeptEntryId).toBeUndefined();
    expect(e.every((x) => !("firstKeptEntryIndex" in x))).toBe(true);
    expect(e.map((x) => x.parentId)).toEqual([null, ...e.slice(0, -1).map((x) => x.id)]);
    expect((e[7]!.message as { role: string }).role).toBe("custom");
  });

  it("keeps v2 ids and parents and renames hookMessage to custom", () => {
    const v2Header: SessionHeader = { type: "session", version: 2, id: "s-v2", timestamp: at(0), cwd: "" };
    const entries = [
      { ...user("a", 1), id: "aaaa0001", parentId: null },
      { type: "message", id: "aaaa0002", parentId: "aaaa0001", timestamp: at(2), message: { role: "hookMessage", customType: "t", content: "c", display: false, timestamp: 2 } },
      { ...user("b", 3), id: "aaaa0003", parentId: "aaaa0001" },
    ];
    const { batch, stream } = both(v2Header, entries);
    expect(stream).toEqual(batch);
    expect(stream.entries.map((e) => [e.id, e.parentId])).toEqual([
      ["aaaa0001", null],
      ["aaaa0002", "aaaa0001"],
      ["aaaa0003", "aaaa0001"],
    ]);
  });

  it("leaves a v3 file untouched and reports no change", () => {
    const v3Header: SessionHeader = { type: "session", version: 3, id: "s-v3", timestamp: at(0), cwd: "" };
    const entries = [{ ...user("a", 1), id: "b0000001", parentId: null }];
    const { batch, stream } = both(v3Header, entries);
    expect(stream).toEqual(batch);
    expect(stream.changed).toBe(false);
  });

  it("uses an injected id generator for v1 files", () => {
    let n = 0;
    const migrator = createStreamMigrator(v1Header, { newId: () => `id${++n}` });
    const out = [user("x", 1), user("y", 2)].map((e) => migrator.migrate(e));
    expect(out.map((e) => [e.id, e.parentId])).toEqual([
      ["id1", null],
      ["id2", "id1"],
    ]);
  });
});
