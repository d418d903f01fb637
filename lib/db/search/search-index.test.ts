/**
 * Full-text rows built after an import (lib/db/search/search-index.ts): the session list's search gives
 * the same results before, during and after the build, commits keep an indexed session indexed,
 * and forks are indexed in their own transaction. The imports here leave their rows to the build
 * (`searchRows: false`, what an import did before it wrote them itself, lib/db/import/search-rows.ts;
 * the build remains for sessions whose rows are missing).
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "@/test/db";
import { getDb } from "../client";
import { importSession } from "../import/import";
import { buildSearchIndex, resumeSearchIndexes } from "./search-index";
import { appendEntries, forkSession, getSessionMeta, listSessions } from "..";
import { userMsg } from "@/test/session-factories";

useTestDatabase();

async function sessionFile(id: string, words: string[]): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "arbor-search-"));
  const file = path.join(dir, `${id}.jsonl`);
  const lines = [JSON.stringify({ type: "session", version: 3, id, timestamp: "2026-01-01T00:00:00.000Z", cwd: "/" })];
  let parentId: string | null = null;
  words.forEach((word, i) => {
    const entryId = `e${i}`;
    const role = i % 2 === 0 ? "user" : "assistant";
    const content = role === "user" ? `please look at ${word} now` : [{ type: "text", text: `found the ${word} here` }];
    lines.push(JSON.stringify({ type: "message", id: entryId, parentId, timestamp: "2026-01-01T00:00:01.000Z", message: { role, content, timestamp: 1 } }));
    parentId = entryId;
  });
  await writeFile(file, `${lines.join("\n")}\n`);
  return file;
}

async function state(sessionId: string): Promise<{ searchSeq: number; rows: number; entriesWithText: number }> {
  const [row] = await getDb().$queryRaw<{ search_seq: number; rows: number; with_text: number }[]>`
    SELECT s.search_seq,
      (SELECT count(*)::int FROM entry_search x WHERE x.session_id = s.id) AS rows,
      (SELECT count(*)::int FROM entries e WHERE e.session_id = s.id AND e.text IS NOT NULL) AS with_text
    FROM sessions s WHERE s.id = ${sessionId}`;
  return { searchSeq: row!.search_seq, rows: row!.rows, entriesWithText: row!.with_text };
}

const hit = async (query: string) => (await listSessions({ query })).sessions.map((s) => ({ id: s.id, match: s.match }));

describe("search index built after an import", () => {
  // A search resumes unfinished builds at most once a minute: spend that now, so the searches
  // below run against sessions whose build this test controls.
  beforeAll(() => resumeSearchIndexes());

  it("finds the same sessions, entries and snippets before and after the build", async () => {
    const words = Array.from({ length: 30 }, (_, i) => `plover${i}x`);
    const r = await importSession({ source: await sessionFile("imp-search-1", words), searchRows: false });
    expect(await state(r.sessionId)).toEqual({ searchSeq: 0, rows: 0, entriesWithText: 30 });

    const before = { one: await hit("plover17x"), prefix: await hit("plover2"), none: await hit("plover17x plover18x") };
    expect(before.one).toEqual([{ id: r.sessionId, match: { entryId: "e17", snippet: "found the plover17x here" } }]);
    expect(before.prefix.map((s) => s.match?.entryId)).toEqual(["e2"]);
    expect(before.none).toEqual([]);

    const progress: number[] = [];
    expect(await buildSearchIndex(r.sessionId, { onProgress: (p) => progress.push(p.indexed) })).toBe(30);
    expect(progress).toEqual([30]);
    expect(await state(r.sessionId)).toEqual({ searchSeq: 30, rows: 30, entriesWithText: 30 });
    expect({ one: await hit("plover17x"), prefix: await hit("plover2"), none: await hit("plover17x plover18x") }).toEqual(before);
    expect(await buildSearchIndex(r.sessionId)).toBe(0);
  });

  it("builds a large session in chunks out of order and finds the same first matches meanwhile", async () => {
    // 12,000 entries: three chunks (SEARCH_CHUNK), built on SEARCH_WORKERS connections at once.
    const words = Array.from({ length: 12_000 }, (_, i) => (i === 3 || i === 11_000 ? "godwit7x" : `curlew${i}x`));
    const r = await importSession({ source: await sessionFile("imp-search-6", words), searchRows: false });
    const before = { first: await hit("godwit7x"), late: await hit("curlew11500x") };
    expect(before.first[0]?.match?.entryId).toBe("e3");
    // A later chunk's rows committed before the first chunk's (what a faster worker leaves):
    // search_seq stays 0, and the rows past it hold what the search computes on the fly.
    await getDb().$executeRaw`INSERT INTO entry_search (session_id, seq, search)
      SELECT session_id, seq, to_tsvector('simple', text) FROM entries WHERE session_id = ${r.sessionId} AND seq >= 10000 AND text IS NOT NULL`;
    expect(await state(r.sessionId)).toMatchObject({ searchSeq: 0, rows: 2000 });
    expect({ first: await hit("godwit7x"), late: await hit("curlew11500x") }).toEqual(before);
    const progress: number[] = [];
    await buildSearchIndex(r.sessionId, { onProgress: (p) => progress.push(p.indexed) });
    expect(progress.at(-1)).toBe(12_000);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(await state(r.sessionId)).toEqual({ searchSeq: 12_000, rows: 12_000, entriesWithText: 12_000 });
    expect({ first: await hit("godwit7x"), late: await hit("curlew11500x") }).toEqual(before);
  });

  it("resumes unfinished builds when a search runs", async () => {
    const r = await importSession({ source: await sessionFile("imp-search-5", ["dunlin1x"]), searchRows: false });
    await resumeSearchIndexes(Date.now() + 120_000);
    await expect.poll(async () => (await state(r.sessionId)).searchSeq).toBe(1);
  });

  it("matches entries committed before the build, and the build then covers them", async () => {
    const r = await importSession({ source: await sessionFile("imp-search-2", ["avocet1x", "avocet2x"]), searchRows: false });
    await appendEntries({ sessionId: r.sessionId, expectedLeafId: r.leafId, entries: [{ type: "message", message: userMsg("and the avocet3x too") }] });
    expect(await state(r.sessionId)).toEqual({ searchSeq: 0, rows: 0, entriesWithText: 3 });
    expect((await hit("avocet3x"))[0]?.match?.entryId).toBeDefined();
    await buildSearchIndex(r.sessionId);
    expect(await state(r.sessionId)).toEqual({ searchSeq: 3, rows: 3, entriesWithText: 3 });
    expect((await hit("avocet3x")).map((s) => s.id)).toEqual([r.sessionId]);
  });

  it("keeps an indexed session indexed on commit, and indexes a fork with its entries", async () => {
    const r = await importSession({ source: await sessionFile("imp-search-3", ["curlew1x", "curlew2x"]), searchRows: false });
    await buildSearchIndex(r.sessionId);
    const appended = await appendEntries({ sessionId: r.sessionId, expectedLeafId: r.leafId, entries: [{ type: "message", message: userMsg("a curlew3x flew by") }] });
    expect(await state(r.sessionId)).toEqual({ searchSeq: 3, rows: 3, entriesWithText: 3 });
    expect((await hit("curlew3x")).map((s) => s.id)).toEqual([r.sessionId]);

    const fork = await forkSession({ sessionId: r.sessionId, leafId: appended.leafId ?? undefined, title: "curlew fork" });
    const meta = await getSessionMeta({ id: fork.sessionId });
    expect(await state(fork.sessionId)).toEqual({ searchSeq: meta.entryCount, rows: meta.entryCount, entriesWithText: meta.entryCount });
    expect((await hit("curlew3x")).map((s) => s.id).sort()).toEqual([r.sessionId, fork.sessionId].sort());
  });

  it("stops between chunks when cancelled and keeps the search correct", async () => {
    const r = await importSession({ source: await sessionFile("imp-search-4", ["godwit1x"]), searchRows: false });
    const abort = new AbortController();
    abort.abort();
    await expect(buildSearchIndex(r.sessionId, { signal: abort.signal })).rejects.toThrow();
    expect(await state(r.sessionId)).toEqual({ searchSeq: 0, rows: 0, entriesWithText: 1 });
    expect((await hit("godwit1x")).map((s) => s.id)).toEqual([r.sessionId]);
  });

  it("finds an older session's match behind a newer session too large for the walk, in list order", async () => {
    // The newest session holds 20,100 entries (more than the walk checks, session-search.ts), so
    // the search goes to the GIN index: it must still find both sessions, newest first, each with
    // its first matching entry.
    const older = await importSession({ source: await sessionFile("imp-search-7", ["rail1x", "stilt1x rail2x", "stilt2x"]) });
    const newer = await importSession({ source: await sessionFile("imp-search-8", Array.from({ length: 20_100 }, (_, i) => (i % 1000 === 7 ? "stilt3x" : "tern"))) });
    await buildSearchIndex(older.sessionId);
    await buildSearchIndex(newer.sessionId);
    await getDb().$executeRaw`UPDATE sessions SET last_activity_at = now() - interval '1 minute' WHERE id = ${older.sessionId}`;
    await getDb().$executeRaw`UPDATE sessions SET last_activity_at = now() WHERE id = ${newer.sessionId}`;

    expect(await hit("rail")).toEqual([{ id: older.sessionId, match: { entryId: "e0", snippet: expect.stringContaining("rail1x") } }]);
    expect(await hit("stilt")).toEqual([
      { id: newer.sessionId, match: { entryId: "e7", snippet: expect.stringContaining("stilt3x") } },
      { id: older.sessionId, match: { entryId: "e1", snippet: expect.stringContaining("stilt1x rail2x") } },
    ]);
    expect(await hit("stilt rail2")).toEqual([{ id: older.sessionId, match: { entryId: "e1", snippet: expect.stringContaining("stilt1x rail2x") } }]);
  });
});
