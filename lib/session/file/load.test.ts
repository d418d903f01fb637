import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { buildSessionContext } from "@/lib/session/context";
import { parseSessionText, serializeSession } from "@/lib/session/file/jsonl";
import { loadSession, loadSessionFromLines, NotASessionError } from "@/lib/session/file/load";
import { assistantEntry, entry, header, userEntry } from "@/test/session-factories";
import type { AssistantMessage, MessageEntry, SessionEntry } from "@/lib/session/types";
import { hasFixtures, LARGE_SESSION } from "@/test/fixtures";

const v3Text = (entries: SessionEntry[]) => serializeSession(header(), entries);

describe("loadSession (session-engine.md §1.8 pipeline)", () => {
  it("throws NotASessionError naming the reason for non-sessions", () => {
    expect(() => loadSession("")).toThrow(NotASessionError);
    expect(() => loadSession("")).toThrow(/no JSON object/);
    expect(() => loadSession('{"type":"message","id":"1"}\n')).toThrow(/not a session header/);
    try {
      loadSession("[1]\n");
    } catch (err) {
      expect(err).toBeInstanceOf(NotASessionError);
      expect((err as NotASessionError).reason).toMatch(/no JSON object/);
    }
  });

  it("a header-only file is an empty session", () => {
    const loaded = loadSession(`${JSON.stringify(header())}\n`);
    expect(loaded.entries).toEqual([]);
    expect(loaded.tree.getLeafId()).toBeNull();
    expect(loaded.migrated).toBe(false);
  });

  it("reports malformed lines with line numbers and keeps the rest", () => {
    const text = [JSON.stringify(header()), JSON.stringify(userEntry("1", null, "q")), "{bad", "7", ""].join("\n");
    const loaded = loadSession(text);
    expect(loaded.entries.map((e) => e.id)).toEqual(["1"]);
    expect(loaded.skipped.map((s) => s.line)).toEqual([3, 4]);
  });

  it("drops entries without an id or with a duplicate id in v3 files, reporting their lines", () => {
    const lines = [
      JSON.stringify(header()),
      JSON.stringify(userEntry("1", null, "q")),
      JSON.stringify({ type: "message", parentId: "1", timestamp: "t", message: {} }),
      JSON.stringify(userEntry("1", null, "again")),
      JSON.stringify(assistantEntry("2", "1", "a")),
    ];
    const loaded = loadSessionFromLines(lines);
    expect(loaded.entries.map((e) => e.id)).toEqual(["1", "2"]);
    expect(loaded.skipped).toEqual([
      { line: 3, reason: "entry has no id" },
      { line: 4, reason: "duplicate entry id 1" },
    ]);
    expect(loaded.tree.getLeafId()).toBe("2");
  });

  it("migrates a v1 text and reports migrated: true", () => {
    const v1 = [
      JSON.stringify({ type: "session", id: "s", timestamp: "2025-01-01T00:00:00.000Z", cwd: "" }),
      JSON.stringify({ type: "message", timestamp: "t", message: { role: "user", content: "q", timestamp: 1 } }),
      JSON.stringify({ type: "compaction", timestamp: "t", summary: "S", firstKeptEntryIndex: 1, tokensBefore: 3 }),
    ].join("\n");
    const loaded = loadSession(v1);
    expect(loaded.migrated).toBe(true);
    expect(loaded.header.version).toBe(3);
    const [first, compaction] = loaded.entries;
    expect(compaction).toMatchObject({ parentId: first!.id, firstKeptEntryId: first!.id });
    expect(loaded.tree.buildContext().messages.map((m) => m.role)).toEqual(["compactionSummary", "user"]);
  });

  it("round-trips unknown entry types through load and serialize", () => {
    const entries = [userEntry("1", null, "q"), entry("weird", "2", "1", { blob: { a: [null, 1] } })];
    const loaded = loadSession(v3Text(entries));
    expect(loaded.migrated).toBe(false);
    expect(serializeSession(loaded.header, loaded.entries)).toBe(v3Text(entries));
  });
});

describe.skipIf(!hasFixtures)("loadSession on the large pi fixture (session-engine.md §1.7, §1.8, §2)", () => {
  const text = hasFixtures ? readFileSync(LARGE_SESSION, "utf8") : "";
  const loaded = () => loadSession(text);

  it("migrates the v1 file to version 3 with all 1018 entries", () => {
    const { header: h, entries, migrated, skipped } = loaded();
    expect(migrated).toBe(true);
    expect(h.version).toBe(3);
    expect(entries).toHaveLength(1018);
    expect(skipped).toEqual([]);
  });

  it("gives every entry a unique 8-hex id and a linear parent chain", () => {
    const { entries, tree } = loaded();
    const ids = entries.map((e) => e.id);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}$/);
    expect(new Set(ids).size).toBe(ids.length);
    expect(entries.map((e) => e.parentId)).toEqual([null, ...ids.slice(0, -1)]);
    expect(tree.getLeafId()).toBe(ids.at(-1));
    expect(tree.getBranch()).toHaveLength(1018);
    expect(tree.getTree()).toHaveLength(1);
  });

  it("round-trips: serialize → parse gives equal header and entries, with nothing left to migrate", () => {
    const first = loaded();
    const written = serializeSession(first.header, first.entries);
    const parsed = parseSessionText(written);
    expect(parsed.header).toEqual(first.header);
    expect(parsed.entries).toEqual(first.entries);
    const second = loadSession(written);
    expect(second.migrated).toBe(false);
    expect(serializeSession(second.header, second.entries)).toBe(written);
  });

  it("buildSessionContext gives every message in file order, with the last thinking level and model", () => {
    const { entries, tree } = loaded();
    const messageEntries = entries.filter((e): e is MessageEntry & SessionEntry => e.type === "message");
    const ctx = buildSessionContext(entries, tree.getLeafId(), tree.getIndex());
    expect(ctx.messages).toHaveLength(messageEntries.length);
    expect(ctx.messages).toEqual(messageEntries.map((e) => e.message));
    const lastThinking = entries.filter((e) => e.type === "thinking_level_change").at(-1);
    expect(ctx.thinkingLevel).toBe(lastThinking?.type === "thinking_level_change" ? lastThinking.thinkingLevel : "off");
    const lastAssistant = messageEntries.map((e) => e.message).filter((m) => m.role === "assistant").at(-1) as
      | AssistantMessage
      | undefined;
    expect(ctx.models.default).toBe(`${lastAssistant!.provider}/${lastAssistant!.model}`);
  });
});
