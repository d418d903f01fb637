import { describe, expect, it } from "vitest";
import { migrateToCurrentVersion } from "@/lib/session/file/migrations";
import type { FileEntry } from "@/lib/session/types";

/** A v1 file: no version, no ids, no parentIds. */
function v1File(): FileEntry[] {
  return [
    { type: "session", id: "s", timestamp: "2025-01-01T00:00:00.000Z", cwd: "", provider: "anthropic" },
    { type: "message", timestamp: "t1", message: { role: "user", content: "one", timestamp: 1 } },
    { type: "message", timestamp: "t2", message: { role: "assistant", content: [], timestamp: 2 } },
    { type: "thinking_level_change", timestamp: "t3", thinkingLevel: "high" },
    { type: "message", timestamp: "t4", message: { role: "user", content: "two", timestamp: 4 } },
    // Index 2 counts the header as 0, so it names the assistant message (file line 3).
    { type: "compaction", timestamp: "t5", summary: "S", firstKeptEntryIndex: 2, tokensBefore: 10 },
  ] as unknown as FileEntry[];
}

type Loose = Record<string, unknown>;

describe("migrateToCurrentVersion (session-engine.md §1.7)", () => {
  it("migrates a v1 file to version 3 with 8-character ids and a linear parent chain", () => {
    const file = v1File();
    expect(migrateToCurrentVersion(file)).toBe(true);
    expect(file[0]!.version).toBe(3);
    const entries = file.slice(1) as unknown as Loose[];
    const ids = entries.map((e) => e.id as string);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}$/);
    expect(new Set(ids).size).toBe(ids.length);
    expect(entries.map((e) => e.parentId)).toEqual([null, ...ids.slice(0, -1)]);
    // Other fields are untouched.
    expect(file[0]!.provider).toBe("anthropic");
    expect(entries[2]!.thinkingLevel).toBe("high");
  });

  it("resolves firstKeptEntryIndex counting the header as position 0, then deletes it", () => {
    const file = v1File();
    migrateToCurrentVersion(file);
    const compaction = file[5] as unknown as Loose;
    expect(compaction.firstKeptEntryId).toBe((file[2] as unknown as Loose).id);
    expect(compaction).not.toHaveProperty("firstKeptEntryIndex");
  });

  it("deletes firstKeptEntryIndex without setting an id when it names the header or nothing", () => {
    for (const index of [0, 99, "2"]) {
      const file = v1File();
      (file[5] as unknown as Loose).firstKeptEntryIndex = index;
      migrateToCurrentVersion(file);
      const compaction = file[5] as unknown as Loose;
      expect(compaction).not.toHaveProperty("firstKeptEntryIndex");
      expect(compaction).not.toHaveProperty("firstKeptEntryId");
    }
  });

  it("keeps the ids of a v2 file and renames hookMessage to custom", () => {
    const file = [
      { type: "session", version: 2, id: "s", timestamp: "t", cwd: "/w" },
      { type: "message", id: "aaaa0001", parentId: null, timestamp: "t1", message: { role: "user", content: "x" } },
      {
        type: "message",
        id: "aaaa0002",
        parentId: "aaaa0001",
        timestamp: "t2",
        message: { role: "hookMessage", customType: "h", content: "y", display: true },
      },
      { type: "message", id: "aaaa0003", parentId: "aaaa0001", timestamp: "t3", message: { role: "assistant" } },
    ] as unknown as FileEntry[];
    expect(migrateToCurrentVersion(file)).toBe(true);
    expect(file[0]!.version).toBe(3);
    const entries = file.slice(1) as unknown as Loose[];
    expect(entries.map((e) => [e.id, e.parentId])).toEqual([
      ["aaaa0001", null],
      ["aaaa0002", "aaaa0001"],
      ["aaaa0003", "aaaa0001"],
    ]);
    expect(entries.map((e) => (e.message as Loose).role)).toEqual(["user", "custom", "assistant"]);
  });

  it("renames hookMessage in a v1 file too", () => {
    const file = v1File();
    (file[1] as unknown as Loose).message = { role: "hookMessage", customType: "h", content: "z", display: false };
    migrateToCurrentVersion(file);
    expect(((file[1] as unknown as Loose).message as Loose).role).toBe("custom");
  });

  it("does nothing to a v3 file", () => {
    const file = [
      { type: "session", version: 3, id: "s", timestamp: "t", cwd: "" },
      { type: "message", id: "x", parentId: null, timestamp: "t", message: { role: "hookMessage" } },
    ] as unknown as FileEntry[];
    const before = structuredClone(file);
    expect(migrateToCurrentVersion(file)).toBe(false);
    expect(file).toEqual(before);
  });

  it("returns false for an empty list or one without a header", () => {
    expect(migrateToCurrentVersion([])).toBe(false);
    const noHeader = [{ type: "message", id: "x", parentId: null, timestamp: "t" }] as unknown as FileEntry[];
    expect(migrateToCurrentVersion(noHeader)).toBe(false);
  });
});
