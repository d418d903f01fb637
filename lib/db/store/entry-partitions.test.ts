/**
 * `entries` in sixteen tables by a hash of the session id (migration
 * 20270125000000_entries_hashed), on real PostgreSQL: what schema.prisma cannot state and
 * schema-parity.test.ts therefore cannot check, and what users would notice if it broke: every
 * session's entries readable at once at 10,000 sessions, deletes that take the entries along,
 * and the move of the rows of the former one-table-per-session layout.
 */
import { cp, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { createEmptyDatabase, dropTestDatabase, useTestDatabase } from "@/test/db";
import { migrate } from "@/lib/postgres";
import { generateSessionJsonl } from "@/test/generators/session";
import type { SessionEntry } from "@/lib/session/types";
import { userMsg } from "@/test/session-factories";
import { chunked } from "@/test/import-helpers";
import { getDb } from "../client";
import { appendEntries, commitEntries, createSession, forkSession, importSession, listSessions, loadPath } from "..";

const db = useTestDatabase();

/** The partitions of `entries` and the indexes of each. */
async function partitions(): Promise<{ name: string; indexes: number }[]> {
  return getDb().$queryRaw<{ name: string; indexes: number }[]>`
    SELECT c.relname AS name, (SELECT count(*)::int FROM pg_index i WHERE i.indrelid = c.oid) AS indexes
    FROM pg_inherits h JOIN pg_class c ON c.oid = h.inhrelid
    WHERE h.inhparent = 'entries'::regclass ORDER BY c.relname`;
}

async function entryCount(sessionId: string): Promise<number> {
  const [row] = await getDb().$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM entries WHERE session_id = ${sessionId}`;
  return row!.n;
}

describe("entries in a fixed set of tables", () => {
  it("keeps sixteen indexed tables however many sessions are created, forked and imported", async () => {
    const { id } = await createSession();
    await appendEntries({ sessionId: id, expectedLeafId: null, entries: [{ type: "message", message: userMsg("hello") }] });
    const { sessionId } = await importSession({ source: chunked(generateSessionJsonl({ seed: 9, entries: 300 })), fileName: "f.jsonl" });
    const fork = await forkSession({ sessionId });
    const parts = await partitions();
    expect(parts).toHaveLength(16);
    for (const p of parts) expect(p.indexes).toBe(3);
    expect(await entryCount(id)).toBe(1);
    expect((await loadPath({ sessionId: fork.sessionId })).length).toBe(fork.entryCount);
    const [tables] = await getDb().$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM pg_class WHERE relname LIKE 'entries%' AND relkind IN ('r', 'p')`;
    expect(tables!.n).toBe(17);
  });

  it("refuses a repeated entry id through the primary key after an import", async () => {
    const text = generateSessionJsonl({ seed: 7, entries: 3000, branches: 3, labels: 4 });
    const { sessionId, entryCount: n } = await importSession({ source: chunked(text), fileName: "big.jsonl" });
    expect(await entryCount(sessionId)).toBe(n);
    const leaf = (await loadPath({ sessionId })).at(-1)!;
    const again = { type: "message", id: leaf.id, parentId: leaf.id, timestamp: new Date().toISOString(), message: userMsg("x") } as SessionEntry;
    await expect(commitEntries({ sessionId, expectedLeafId: leaf.id, entries: [again] })).rejects.toThrow();
  });

  it("leaves no entries behind when an import fails", async () => {
    const good = generateSessionJsonl({ seed: 8, entries: 500 });
    const lines = good.trimEnd().split("\n");
    const id = JSON.parse(lines[0]!).id as string;
    const bad = `${good}${lines[1]}\n`; // the first entry again
    await expect(importSession({ source: chunked(bad), fileName: "bad.jsonl" })).rejects.toThrow(/bad\.jsonl:502: duplicate entry id/);
    expect(await entryCount(id)).toBe(0);
  });

  it("deletes a session's entries with its row, and only its own", async () => {
    const a = await createSession();
    const b = await createSession();
    for (const s of [a, b]) await appendEntries({ sessionId: s.id, expectedLeafId: null, entries: [{ type: "message", message: userMsg("x") }] });
    await getDb().$executeRaw`DELETE FROM sessions WHERE id = ${a.id}`;
    expect(await entryCount(a.id)).toBe(0);
    expect(await entryCount(b.id)).toBe(1);
  });

  it("reads every session's entries in one statement at 10,000 sessions, with a few dozen locks", async () => {
    const admin = new pg.Client({ connectionString: db.adminUrl });
    await admin.connect();
    try {
      await admin.query(`INSERT INTO sessions (id, header, cwd, created_at, updated_at, last_activity_at, entry_count)
        SELECT 'many-' || g, '{}', '', now(), now(), now(), 2 FROM generate_series(1, 10000) g`);
      await admin.query(`INSERT INTO entries (session_id, id, type, "timestamp", seq, data, text)
        SELECT 'many-' || g, 'e' || k, 'message', 't', k, '{}', 'word' || g FROM generate_series(1, 10000) g, generate_series(0, 1) k`);
      await admin.query("BEGIN");
      const all = await admin.query<{ n: number; sessions: number }>(
        "SELECT count(*)::int AS n, count(DISTINCT e.session_id)::int AS sessions FROM sessions s JOIN entries e ON e.session_id = s.id WHERE s.id LIKE 'many-%'",
      );
      const locks = await admin.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_locks WHERE pid = pg_backend_pid()");
      await admin.query("COMMIT");
      expect(all.rows[0]).toEqual({ n: 20_000, sessions: 10_000 });
      expect(locks.rows[0]!.n).toBeLessThan(100);
      // The search of sessions not yet indexed (every one here) still finds the one it names.
      const found = await listSessions({ query: "word4321" });
      expect(found.sessions.map((s) => s.id)).toEqual(["many-4321"]);
    } finally {
      await admin.query("ROLLBACK").catch(() => undefined);
      await admin.query("DELETE FROM sessions WHERE id LIKE 'many-%'");
      await admin.end();
    }
  });

  it("lets other sessions commit while an import's transaction is open", async () => {
    const other = await createSession();
    const base = await appendEntries({ sessionId: other.id, expectedLeafId: null, entries: [{ type: "message", message: userMsg("before") }] });
    const holder = new pg.Client({ connectionString: db.url });
    await holder.connect();
    try {
      await holder.query("BEGIN");
      await holder.query(`INSERT INTO sessions (id, header, cwd, created_at, updated_at, last_activity_at) VALUES ('held', '{}', '', now(), now(), now())`);
      await holder.query(`INSERT INTO entries (session_id, id, type, "timestamp", seq, data) VALUES ('held', 'h1', 'message', 't', 0, '{}')`);
      const committed = commitEntries({
        sessionId: other.id,
        expectedLeafId: base.leafId,
        entries: [{ type: "message", id: "during1", parentId: base.leafId, timestamp: new Date().toISOString(), message: userMsg("during") } as SessionEntry],
      });
      const waited = await Promise.race([committed.then(() => "committed"), new Promise((r) => setTimeout(() => r("blocked"), 5000))]);
      expect(waited).toBe("committed");
      expect((await loadPath({ sessionId: other.id })).map((e) => e.id)).toEqual([base.leafId, "during1"]);
    } finally {
      await holder.query("ROLLBACK").catch(() => undefined);
      await holder.end();
    }
  });
});

describe("the migration from one table per session", () => {
  it("moves every existing entry, with its label and data, and drops the sessions' own tables", async () => {
    const empty = await createEmptyDatabase("arbor_hash_migration");
    const before = await mkdtemp(path.join(tmpdir(), "arbor-migrations-"));
    const client = new pg.Client({ connectionString: empty.url });
    try {
      await cp(path.join(process.cwd(), "prisma/migrations"), before, { recursive: true });
      // The database as it was before the migration: it and every later one left out.
      for (const name of await readdir(before)) if (/^\d/.test(name) && name >= "20270125000000_entries_hashed") await rm(path.join(before, name), { recursive: true });
      await migrate(empty.url, before);
      await client.connect();
      for (const sid of ["s-one", "s-two"]) {
        await client.query(`INSERT INTO sessions (id, header, cwd, created_at, updated_at, last_activity_at) VALUES ($1, '{}', '', now(), now(), now())`, [sid]);
        for (let i = 0; i < 3; i++) {
          await client.query(
            `INSERT INTO entries (session_id, id, parent_id, type, "timestamp", seq, data, label) VALUES ($1, $2, $3, 'message', 't', $4, $5, $6)`,
            [sid, `${sid}-${i}`, i === 0 ? null : `${sid}-${i - 1}`, i, JSON.stringify({ n: i }), i === 1 ? "kept" : null],
          );
        }
      }
      const own = await client.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_class WHERE relname ~ '^entries_[0-9a-f]{32}$'");
      expect(own.rows[0]!.n).toBe(2);
      await migrate(empty.url);
      const rows = await client.query<{ id: string; label: string | null; data: string; tbl: string }>(
        `SELECT id, label, data, tableoid::regclass::text AS tbl FROM entries ORDER BY session_id, seq`,
      );
      expect(rows.rows.map((r) => [r.id, r.label])).toEqual([
        ["s-one-0", null], ["s-one-1", "kept"], ["s-one-2", null],
        ["s-two-0", null], ["s-two-1", "kept"], ["s-two-2", null],
      ]);
      expect(JSON.parse(rows.rows[2]!.data)).toEqual({ n: 2 });
      for (const r of rows.rows) expect(r.tbl).toMatch(/^entries_p\d\d$/);
      const left = await client.query("SELECT relname FROM pg_class WHERE relname ~ '^entries_([0-9a-f]{32}|by_session)'");
      expect(left.rows).toEqual([]);
      // New sessions no longer get a table, and a delete still takes the entries along.
      await client.query(`INSERT INTO sessions (id, header, cwd, created_at, updated_at, last_activity_at) VALUES ('s-new', '{}', '', now(), now(), now())`);
      await client.query("DELETE FROM sessions WHERE id = 's-one'");
      const after = await client.query<{ n: number; tables: number }>(
        "SELECT (SELECT count(*)::int FROM entries) AS n, (SELECT count(*)::int FROM pg_class WHERE relname ~ '^entries_[0-9a-f]{32}$') AS tables",
      );
      expect(after.rows[0]).toEqual({ n: 3, tables: 0 });
    } finally {
      await client.end().catch(() => undefined);
      await rm(before, { recursive: true, force: true });
      await dropTestDatabase(empty.name);
    }
  });
});
