/**
 * The bulk load of imports (one binary COPY, lib/db/import/entry-load.ts): an imported session is
 * stored exactly as the commit path (insertEntryRows) stores the same entries — every column,
 * seq, labels and the full-text data the session list searches — and a cancelled or failing
 * import leaves nothing, whenever in the COPY it stops (a bad line, a cancel, a lost connection).
 */
import { describe, expect, it } from "vitest";
import { serializeSession } from "@/lib/session/file/jsonl";
import { generateSession } from "@/test/generators/session";
import type { SessionEntry } from "@/lib/session/types";
import { useTestDatabase } from "@/test/db";
import { getDb } from "../client";
import { commitEntries, createSession, importSession, listSessions } from "..";
import { chunked, counts, failure } from "@/test/import-helpers";
import { buildSearchIndex } from "../search/search-index";

useTestDatabase();

const enc = new TextEncoder();

/** Entries that take the slow path (toPgJson) or need escaping, appended to a chain. */
function awkward(parentId: string): SessionEntry[] {
  const texts = ["nul \u0000 byte", "lone \ud800 surrogate", "tab\tand\nnewline \\ backslash", "emoji 👋🏽 日本語 \u001b[31mred", "x".repeat(600_000)];
  let parent = parentId;
  const out: SessionEntry[] = texts.map((text, i) => {
    const e = { type: "message", id: `aw${i}`, parentId: parent, timestamp: `2026-01-01T00:00:0${i}.000Z`, message: { role: "user", content: text, timestamp: i } };
    parent = e.id;
    return e as unknown as SessionEntry;
  });
  const streaming = { type: "message", id: "aw-stream", parentId: parent, timestamp: "2026-01-01T00:01:00.000Z", message: { role: "assistant", content: [{ type: "toolCall", id: "t", name: "bash", arguments: {}, partialJson: "{" }], provider: "p", model: "m", usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 }, stopReason: "stop", timestamp: 9 } };
  return [...out, streaming as unknown as SessionEntry];
}

const COLUMNS = `e.id, e.parent_id, e.type, e."timestamp", e.seq, e.data::text AS data, e.role, e.tokens, e.label, e.text, e.pruned_original::text AS pruned, x.search::text AS search`;

/** Every entry row with its full-text row (entry_search; null when the entry has none). */
async function rowsOf(sessionId: string): Promise<Record<string, unknown>[]> {
  return getDb().$queryRawUnsafe(
    `SELECT ${COLUMNS} FROM entries e LEFT JOIN entry_search x ON x.session_id = e.session_id AND x.seq = e.seq
     WHERE e.session_id = $1 ORDER BY e.seq`,
    sessionId,
  );
}

/** A v3 file of `n` chained user messages, with `bad` put in as line `bad.line`. */
function chainFile(id: string, n: number, bad?: { line: number; text: string }): string {
  const lines = [JSON.stringify({ type: "session", version: 3, id, timestamp: "2026-01-01T00:00:00.000Z", cwd: "/w" })];
  for (let i = 0; i < n; i++) {
    if (bad && lines.length + 1 === bad.line) lines.push(bad.text);
    lines.push(JSON.stringify({ type: "message", id: `c${i}`, parentId: i === 0 ? null : `c${i - 1}`, timestamp: "2026-01-01T00:00:01.000Z", message: { role: "user", content: `words ${i} ${"filler ".repeat(20)}`, timestamp: i } }));
  }
  return `${lines.join("\n")}\n`;
}

describe("importSession: bulk load through COPY", () => {
  it("stores exactly what the commit path stores: columns, seq, labels and search data", async () => {
    const { header, entries: generated } = generateSession({ seed: 12, entries: 2500, branches: 3, labels: 4 });
    const entries = [...generated, ...awkward(generated.at(-1)!.id)];
    const imported = await importSession({ source: chunked(serializeSession(header, entries)), fileName: "gen.jsonl", batchSize: 700 });
    expect(imported.entryCount).toBe(entries.length);

    const committed = await createSession({ header: { ...header, id: "via-commit" } });
    let leaf: string | null = null;
    for (let i = 0; i < entries.length; i += 400) {
      leaf = (await commitEntries({ sessionId: committed.id, expectedLeafId: leaf, entries: entries.slice(i, i + 400) })).leafId;
    }

    // The full-text rows are built after the import (lib/db/search/search-index.ts); the search below
    // runs before and after that build.
    const beforeBuild = await listSessions({ query: "surrogate" });
    await buildSearchIndex(imported.sessionId);
    const a = await rowsOf(imported.sessionId);
    const b = await rowsOf(committed.id);
    expect(a.length).toBe(entries.length);
    expect(a).toEqual(b);
    expect(a.filter((r) => r.search !== null).length).toBe(a.filter((r) => r.text !== null).length);
    expect(a.filter((r) => r.label !== null).length).toBeGreaterThan(0);
    expect(a.every((r, i) => r.seq === i)).toBe(true);

    // The session list's full-text search finds both, at the same entry.
    const word = String((a.find((r) => typeof r.text === "string" && /^\p{L}{5,}/u.test(r.text as string))!.text as string).match(/^\p{L}+/u)![0]);
    const page = await listSessions({ query: word });
    const hits = new Map(page.sessions.map((s) => [s.id, s.match?.entryId]));
    expect(hits.get(imported.sessionId)).toBeDefined();
    expect(hits.get(imported.sessionId)).toBe(hits.get(committed.id));
    const nul = await listSessions({ query: "surrogate" });
    expect(nul.sessions.map((s) => s.match?.entryId).filter(Boolean)).toEqual(["aw1", "aw1"]);
    expect(beforeBuild).toEqual(nul);
  });

  it("leaves nothing when cancelled in the middle of the COPY", async () => {
    const before = await counts();
    const controller = new AbortController();
    const error = await failure(
      importSession({
        source: chunked(chainFile("s-cancel", 20_000)),
        fileName: "cancel.jsonl",
        batchSize: 1000,
        signal: controller.signal,
        onProgress: (p) => {
          if (p.entries >= 12_000) controller.abort();
        },
      }),
    );
    expect(error.code).toBe("cancelled");
    expect(await counts()).toEqual(before);
    // The bulk connection is gone, not left idle in its transaction.
    const [open] = await getDb().$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'`;
    expect(open!.n).toBe(0);
  });

  it("fails with the database's message and saves nothing when the server ends the connection in the middle of the COPY", async () => {
    const before = await counts();
    const bytes = enc.encode(chainFile("s-killed", 20_000));
    // Pauses after about a quarter of the file until the COPY's server process is gone: the
    // connection breaks while the import is still streaming rows into the COPY.
    async function* killedMidway(): AsyncGenerator<Uint8Array> {
      const cut = Math.floor(bytes.length / 4);
      for (let i = 0; i < cut; i += 64 * 1024) yield bytes.slice(i, Math.min(i + 64 * 1024, cut));
      const copying = `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'COPY entries%' AND pid <> pg_backend_pid()`;
      const [victim] = await getDb().$queryRawUnsafe<{ pid: number }[]>(copying);
      expect(victim).toBeDefined();
      await getDb().$queryRawUnsafe("SELECT pg_terminate_backend($1::int)", victim!.pid);
      for (let tries = 0; (await getDb().$queryRawUnsafe<unknown[]>(copying)).length > 0 && tries < 100; tries++) await new Promise((r) => setTimeout(r, 20));
      for (let i = cut; i < bytes.length; i += 64 * 1024) yield bytes.slice(i, i + 64 * 1024);
    }
    const error = await failure(importSession({ source: killedMidway(), fileName: "killed.jsonl", batchSize: 500 }));
    expect(error.code).toBe("unavailable");
    expect(error.message).toMatch(/^killed\.jsonl: .*; nothing was saved$/);
    expect(await counts()).toEqual(before);
  });

  it("rolls everything back for a bad line late in a big file, naming its line", async () => {
    const before = await counts();
    const bad = JSON.stringify({ type: "message", parentId: null, timestamp: "x", message: { role: "user", content: "no id" } });
    const error = await failure(importSession({ source: chunked(chainFile("s-late", 30_000, { line: 29_990, text: bad })), fileName: "late.jsonl" }));
    expect(error).toMatchObject({ code: "invalid_entry", line: 29_990, field: "id" });
    expect(error.message).toBe("late.jsonl:29990: entry has no id (field id)");
    expect(await counts()).toEqual(before);
    const dup = chainFile("s-late-dup", 30_000, { line: 29_000, text: JSON.stringify({ type: "message", id: "c5", parentId: null, timestamp: "x", message: { role: "user", content: "again" } }) });
    const dupError = await failure(importSession({ source: chunked(dup), fileName: "dup.jsonl" }));
    expect(dupError.message).toBe("dup.jsonl:29000: duplicate entry id c5 (first used on line 7)");
    expect(await counts()).toEqual(before);
  });
});
