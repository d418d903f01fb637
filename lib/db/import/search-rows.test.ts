/**
 * An import's full-text rows written in its own transaction (lib/db/import/search-rows.ts): a
 * session commits fully indexed, small (one statement) or large (the helper connection's chunks
 * and the main connection's), every row exactly what the search computes on the fly; a
 * cancelled import leaves no rows; a deleted session takes its rows with it (no foreign key,
 * migration 20270127000001_entry_search_unchecked).
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@/test/db";
import { getDb } from "../client";
import { importSession } from "./import";
import { PARALLEL_FROM_BYTES } from "./search-rows";
import { listSessions } from "..";

useTestDatabase();

/** A pi file of `n` messages, each text `size` characters long with a word of its own; `words[i]` goes in message i. */
async function sessionFile(id: string, n: number, size: number, words: Record<number, string> = {}): Promise<{ file: string; textBytes: number }> {
  const dir = await mkdtemp(path.join(tmpdir(), "arbor-search-rows-test-"));
  const file = path.join(dir, `${id}.jsonl`);
  const lines = [JSON.stringify({ type: "session", version: 3, id, timestamp: "2026-01-01T00:00:00.000Z", cwd: "/" })];
  let parentId: string | null = null;
  let textBytes = 0;
  for (let i = 0; i < n; i++) {
    const entryId = `e${i}`;
    // A thinking-level change between messages: an entry without text.
    if (i % 10 === 5) {
      lines.push(JSON.stringify({ type: "thinking_level_change", id: `t${i}`, parentId, timestamp: "2026-01-01T00:00:01.000Z", thinkingLevel: "high" }));
      parentId = `t${i}`;
    }
    const body = `${words[i] ?? `word${i}x`} ${"lorem ipsum dolor sit amet ".repeat(Math.ceil(size / 27))}`.slice(0, size);
    textBytes += Buffer.byteLength(body);
    lines.push(JSON.stringify({ type: "message", id: entryId, parentId, timestamp: "2026-01-01T00:00:01.000Z", message: { role: "user", content: body, timestamp: 1 } }));
    parentId = entryId;
  }
  await writeFile(file, `${lines.join("\n")}\n`);
  return { file, textBytes };
}

/** The session's index state, and the rows that differ from to_tsvector of the entry's stored text. */
async function indexOf(sessionId: string) {
  const [row] = await getDb().$queryRaw<{ search_seq: number; entry_count: number; rows: number; with_text: number; wrong: number }[]>`
    SELECT s.search_seq, s.entry_count,
      (SELECT count(*)::int FROM entry_search x WHERE x.session_id = s.id) AS rows,
      (SELECT count(*)::int FROM entries e WHERE e.session_id = s.id AND e.text IS NOT NULL) AS with_text,
      (SELECT count(*)::int FROM entries e LEFT JOIN entry_search x ON x.session_id = e.session_id AND x.seq = e.seq
        WHERE e.session_id = s.id AND (x.search IS DISTINCT FROM to_tsvector('simple', e.text))) AS wrong
    FROM sessions s WHERE s.id = ${sessionId}`;
  return row;
}

const rowsOf = async (sessionId: string) =>
  (await getDb().$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM entry_search WHERE session_id = ${sessionId}`)[0]!.n;

describe("an import's full-text rows", () => {
  it("commits a small session fully indexed", async () => {
    const { file } = await sessionFile("rows-small", 40, 60, { 7: "sandpiper7x" });
    const r = await importSession({ source: file });
    // 40 messages and 4 thinking-level changes (no text).
    expect(await indexOf(r.sessionId)).toEqual({ search_seq: 44, entry_count: 44, rows: 40, with_text: 40, wrong: 0 });
    const found = (await listSessions({ query: "sandpiper7x" })).sessions;
    expect(found.map((s) => [s.id, s.match?.entryId])).toEqual([[r.sessionId, "e7"]]);
  });

  it("commits a large session fully indexed, every row what the search computes, across the helper's chunks", async () => {
    // ~4 MB of text: past PARALLEL_FROM_BYTES, in several chunks; a NUL in one text (stored as U+FFFD).
    const { file, textBytes } = await sessionFile("rows-large", 2000, 2000, { 3: "turnstone3x", 1990: "knot\u0000bird1990x" });
    expect(textBytes).toBeGreaterThan(3 * PARALLEL_FROM_BYTES);
    const r = await importSession({ source: file });
    const withText = 2000;
    expect(await indexOf(r.sessionId)).toEqual({ search_seq: 2200, entry_count: 2200, rows: withText, with_text: withText, wrong: 0 });
    const first = (await listSessions({ query: "turnstone3x" })).sessions;
    expect(first.map((s) => [s.id, s.match?.entryId])).toEqual([[r.sessionId, "e3"]]);
    const late = (await listSessions({ query: "bird1990x" })).sessions;
    expect(late.map((s) => [s.id, s.match?.entryId])).toEqual([[r.sessionId, "e1990"]]);
  });

  it("leaves no rows when the import is cancelled midway", async () => {
    const { file } = await sessionFile("rows-cancelled", 2000, 2000);
    const abort = new AbortController();
    const imported = importSession({
      source: file,
      batchSize: 100,
      signal: abort.signal,
      onProgress: (p) => {
        if (p.entries >= 1500) abort.abort();
      },
    });
    await expect(imported).rejects.toMatchObject({ code: "cancelled" });
    expect(await rowsOf("rows-cancelled")).toBe(0);
    const [s] = await getDb().$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM sessions WHERE id = 'rows-cancelled'`;
    expect(s!.n).toBe(0);
  });

  it("leaves the rows to the build after the commit with searchRows: false", async () => {
    const { file } = await sessionFile("rows-after", 30, 60);
    const r = await importSession({ source: file, searchRows: false });
    expect(await indexOf(r.sessionId)).toMatchObject({ search_seq: 0, rows: 0, with_text: 30 });
  });

  it("deletes a session's rows with the session, and only its own", async () => {
    const a = await importSession({ source: (await sessionFile("rows-del-a", 20, 60)).file });
    const b = await importSession({ source: (await sessionFile("rows-del-b", 20, 60)).file });
    expect([await rowsOf(a.sessionId), await rowsOf(b.sessionId)]).toEqual([20, 20]);
    await getDb().$executeRaw`DELETE FROM sessions WHERE id = ${a.sessionId}`;
    expect([await rowsOf(a.sessionId), await rowsOf(b.sessionId)]).toEqual([0, 20]);
  });
});
