/**
 * One table per session for `entries` (lib/db/store/entry-partitions.ts, migration
 * 20270115000000_entries_by_session), on real PostgreSQL: what schema.prisma cannot state and
 * schema-parity.test.ts therefore cannot check, and what users would notice if it broke.
 */
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { createEmptyDatabase, dropTestDatabase } from "@/test/db";
import { migrate } from "@/lib/postgres";
import { generateSession, generateSessionJsonl } from "@/test/generators/session";
import type { SessionEntry } from "@/lib/session/types";
import { userMsg } from "@/test/session-factories";
import { useTestDatabase } from "@/test/db";
import { chunked } from "@/test/import-helpers";
import { getDb } from "../client";
import { IdCollisionError } from "../errors";
import { writeWholeSession } from "./session";
import { withBulkTransaction } from "./sql";
import {
  appendEntries,
  buildSearchIndex,
  commitEntries,
  createSession,
  exportSession,
  findSessionMeta,
  forkSession,
  importSession,
  listSessions,
  loadEntries,
  loadPath,
  readSession,
} from "..";
import { configureReadModel } from "../read-model";

const db = useTestDatabase();

/** The session's partition: its name, whether it is attached, and its indexes' definitions. */
async function partition(sessionId: string) {
  const [row] = await getDb().$queryRaw<{ name: string; attached: boolean | null }[]>`
    SELECT arbor_entries_partition(${sessionId}) AS name,
      (SELECT c.relispartition FROM pg_class c WHERE c.relname = arbor_entries_partition(${sessionId})) AS attached`;
  const indexes = await getDb().$queryRaw<{ def: string }[]>`
    SELECT regexp_replace(indexdef, 'INDEX \\S+ ON public\\.\\S+', 'INDEX ON <table>') AS def
    FROM pg_indexes WHERE tablename = ${row!.name} ORDER BY def`;
  return { name: row!.name, attached: row!.attached, indexes: indexes.map((i) => i.def) };
}

const INDEXES = [
  "CREATE INDEX ON <table> USING btree (session_id, parent_id)",
  "CREATE UNIQUE INDEX ON <table> USING btree (session_id, id)",
  "CREATE UNIQUE INDEX ON <table> USING btree (session_id, seq)",
];

describe("entries, one table per session", () => {
  it("gives a new session its own attached table, with the three indexes of entries, where its commits go", async () => {
    const { id } = await createSession();
    expect(await partition(id)).toMatchObject({ attached: true, indexes: INDEXES });
    const [owners] = await getDb().$queryRaw<{ entries: string; mine: string }[]>`
      SELECT pg_get_userbyid((SELECT relowner FROM pg_class WHERE relname = 'entries')) AS entries,
        pg_get_userbyid((SELECT relowner FROM pg_class WHERE relname = arbor_entries_partition(${id}))) AS mine`;
    expect(owners!.mine).toBe(owners!.entries);
    const first = await appendEntries({ sessionId: id, expectedLeafId: null, entries: [{ type: "message", message: userMsg("hello") }] });
    const rows = await getDb().$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM "${(await partition(id)).name}"`);
    expect(rows[0]!.n).toBe(1);
    expect((await loadPath({ sessionId: id })).map((e) => e.id)).toEqual([first.leafId]);
  });

  it("imports into a table that is attached, indexed and complete when the import returns", async () => {
    const text = generateSessionJsonl({ seed: 7, entries: 3000, branches: 3, labels: 4 });
    const { sessionId, entryCount } = await importSession({ source: chunked(text), fileName: "big.jsonl" });
    expect(await partition(sessionId)).toMatchObject({ attached: true, indexes: INDEXES });
    const [count] = await getDb().$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM entries WHERE session_id = ${sessionId}`;
    expect(count!.n).toBe(entryCount);
    // A repeated id is still refused by the attached table's primary key.
    const path = await loadPath({ sessionId });
    const leaf = path.at(-1)!;
    const again = { type: "message", id: leaf.id, parentId: leaf.id, timestamp: new Date().toISOString(), message: userMsg("x") } as SessionEntry;
    await expect(commitEntries({ sessionId, expectedLeafId: leaf.id, entries: [again] })).rejects.toThrow();
  });

  it("leaves no table behind when an import fails", async () => {
    const good = generateSessionJsonl({ seed: 8, entries: 500 });
    const lines = good.trimEnd().split("\n");
    const id = JSON.parse(lines[0]!).id as string;
    const bad = `${good}${lines[1]}\n`; // the first entry again; the session's table exists by then
    await expect(importSession({ source: chunked(bad), fileName: "bad.jsonl" })).rejects.toThrow(/bad\.jsonl:502: duplicate entry id/);
    const [row] = await getDb().$queryRaw<{ tables: number }[]>`
      SELECT count(*)::int AS tables FROM pg_class WHERE relname = arbor_entries_partition(${id})`;
    expect(row!.tables).toBe(0);
  });

  it("forks into an attached table of the new session", async () => {
    const { sessionId } = await importSession({ source: chunked(generateSessionJsonl({ seed: 9, entries: 300 })), fileName: "f.jsonl" });
    const fork = await forkSession({ sessionId });
    expect(await partition(fork.sessionId)).toMatchObject({ attached: true, indexes: INDEXES });
    expect((await loadPath({ sessionId: fork.sessionId })).length).toBe(fork.entryCount);
  });

  it("refuses a whole session with a repeated id before writing anything (its table has no key until attached)", async () => {
    const { header, entries } = generateSession({ seed: 11, entries: 40 });
    const repeated = { ...entries[20]!, parentId: entries.at(-1)!.id } as SessionEntry;
    const write = withBulkTransaction((sql) => writeWholeSession(sql, { header, entries: [...entries, repeated], leafId: repeated.id }));
    await expect(write).rejects.toBeInstanceOf(IdCollisionError);
    await expect(write).rejects.toMatchObject({ ids: [repeated.id] });
    expect(await findSessionMeta({ id: header.id })).toBeNull();
    expect((await partition(header.id)).attached).toBeNull();
  });

  it("creates the table for a role that may only write rows (the functions run as the owner of entries)", async () => {
    const role = `arbor_rows_${Math.random().toString(36).slice(2, 10)}`;
    const admin = new pg.Client({ connectionString: db.adminUrl });
    await admin.connect();
    try {
      await admin.query(`CREATE ROLE ${role} NOLOGIN`);
      await admin.query(`GRANT USAGE ON SCHEMA public TO ${role}; GRANT SELECT, INSERT ON sessions, entries TO ${role}`);
      await admin.query(`SET ROLE ${role}`);
      await admin.query(`INSERT INTO sessions (id, header, cwd, created_at, updated_at, last_activity_at) VALUES ('rows-only', '{}', '', now(), now(), now())`);
      await admin.query(`INSERT INTO entries (session_id, id, type, "timestamp", seq, data) VALUES ('rows-only', 'r1', 'message', 't', 0, '{}')`);
      await admin.query("RESET ROLE");
      const found = await admin.query<{ id: string }>("SELECT id FROM entries WHERE session_id = 'rows-only'");
      expect(found.rows.map((r) => r.id)).toEqual(["r1"]);
      expect(await partition("rows-only")).toMatchObject({ attached: true, indexes: INDEXES });
    } finally {
      await admin.query("RESET ROLE").catch(() => undefined);
      await admin.query(`DROP OWNED BY ${role}`).catch(() => undefined);
      await admin.query(`DROP ROLE IF EXISTS ${role}`).catch(() => undefined);
      await admin.end();
    }
  });

  it("drops a session's table with its row", async () => {
    const { id } = await createSession();
    const name = (await partition(id)).name;
    await getDb().$executeRaw`DELETE FROM sessions WHERE id = ${id}`;
    const [row] = await getDb().$queryRaw<{ tables: number }[]>`SELECT count(*)::int AS tables FROM pg_class WHERE relname = ${name}`;
    expect(row!.tables).toBe(0);
  });

  it("keeps a big import's path read on index scans without any column statistics", async () => {
    const { sessionId } = await importSession({ source: chunked(generateSessionJsonl({ seed: 10, entries: 6000 })), fileName: "p.jsonl" });
    const name = (await partition(sessionId)).name;
    const [stats] = await getDb().$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM pg_stats WHERE tablename = '${name}'`);
    expect(stats!.n).toBe(0);
    // The recursive step of loadPath (lib/db/store/read.ts), planned as the app plans it.
    const plan = await getDb().$queryRaw<{ "QUERY PLAN": string }[]>`
      EXPLAIN WITH RECURSIVE path AS (
        SELECT e.id, e.parent_id, 0 AS depth FROM sessions s JOIN entries e ON e.session_id = ${sessionId} AND e.id = s.leaf_id
        WHERE s.id = ${sessionId}
        UNION ALL
        SELECT e.id, e.parent_id, p.depth + 1 FROM path p JOIN entries e ON e.session_id = ${sessionId} AND e.id = p.parent_id
      ) SELECT count(*) FROM path`;
    const text = plan.map((r) => r["QUERY PLAN"]).join("\n");
    expect(text).toContain(`Index Scan using ${name}_pkey`);
    expect(text).not.toMatch(/Seq Scan on entries_/);
  });

  it("reads, writes, exports, forks and searches one session without touching another session's table", async () => {
    // Each statement must name its session's id, so that only that session's table is planned
    // and opened: with the other session's table locked, any statement reaching it would wait.
    const other = await importSession({ source: chunked(generateSessionJsonl({ seed: 11, entries: 200 })), fileName: "other.jsonl" });
    await buildSearchIndex(other.sessionId);
    const text = generateSessionJsonl({ seed: 12, entries: 200 }).replace("Please port", "Please zanzibarify and port");
    const mine = await importSession({ source: chunked(text), fileName: "mine.jsonl" });
    const locker = new pg.Client({ connectionString: db.adminUrl });
    await locker.connect();
    try {
      await locker.query("BEGIN");
      await locker.query(`LOCK TABLE ${(await partition(other.sessionId)).name} IN ACCESS EXCLUSIVE MODE`);
      const work = (async () => {
        configureReadModel({ clear: true });
        const view = await readSession({ sessionId: mine.sessionId });
        view.tree.buildContext();
        await findSessionMeta({ id: mine.sessionId });
        await loadEntries({ sessionId: mine.sessionId });
        const leaf = (await loadPath({ sessionId: mine.sessionId })).at(-1)!.id;
        await appendEntries({ sessionId: mine.sessionId, expectedLeafId: leaf, entries: [{ type: "message", message: userMsg("more") }] });
        await readSession({ sessionId: mine.sessionId });
        for await (const _line of (await exportSession({ sessionId: mine.sessionId })).lines()) void _line;
        await forkSession({ sessionId: mine.sessionId });
        await createSession();
        // Not indexed yet: its entries are matched on the fly, in its own table only.
        const found = await listSessions({ query: "zanzibarify" });
        expect(found.sessions.map((s) => s.id)).toContain(mine.sessionId);
        expect(found.sessions.find((s) => s.id === mine.sessionId)?.match?.snippet).toContain("zanzibarify");
        return "done";
      })();
      const outcome = await Promise.race([work, new Promise((r) => setTimeout(() => r("waited for the other session's table"), 5000))]);
      expect(outcome).toBe("done");
    } finally {
      await locker.query("COMMIT").catch(() => undefined);
      await locker.end();
    }
  });

  it("lets other sessions read and commit while an import's table is being attached", async () => {
    const other = await createSession();
    const base = await appendEntries({ sessionId: other.id, expectedLeafId: null, entries: [{ type: "message", message: userMsg("before") }] });
    // A bulk writer's transaction, held open right after attaching (the lock stays until it ends).
    const holder = new pg.Client({ connectionString: db.url });
    await holder.connect();
    try {
      await holder.query("BEGIN");
      await holder.query("SELECT set_config('arbor.entries_partition', 'detached', true)");
      await holder.query(
        `INSERT INTO sessions (id, header, cwd, created_at, updated_at, last_activity_at) VALUES ('held', '{}', '', now(), now(), now())`,
      );
      await holder.query("SELECT arbor_attach_entries_partition('held')");
      const committed = commitEntries({
        sessionId: other.id,
        expectedLeafId: base.leafId,
        entries: [{ type: "message", id: "during1", parentId: base.leafId, timestamp: new Date().toISOString(), message: userMsg("during") } as SessionEntry],
      });
      const waited = await Promise.race([committed.then(() => "committed"), new Promise((r) => setTimeout(() => r("blocked"), 5000))]);
      expect(waited).toBe("committed");
      expect((await loadPath({ sessionId: other.id })).map((e) => e.id)).toEqual([base.leafId, "during1"]);
      await holder.query("COMMIT");
    } finally {
      await holder.end();
    }
  });
});

describe("the migration to one table per session", () => {
  it("moves every existing entry, with its label and data, into its session's table", async () => {
    const empty = await createEmptyDatabase("arbor_partition_migration");
    const before = await mkdtemp(path.join(tmpdir(), "arbor-migrations-"));
    const client = new pg.Client({ connectionString: empty.url });
    try {
      await cp(path.join(process.cwd(), "prisma/migrations"), before, { recursive: true });
      await rm(path.join(before, "20270115000000_entries_by_session"), { recursive: true });
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
      await migrate(empty.url);
      const rows = await client.query<{ session_id: string; id: string; seq: number; label: string | null; data: unknown; tbl: string; part: string }>(
        `SELECT session_id, id, seq, label, data, tableoid::regclass::text AS tbl, arbor_entries_partition(session_id) AS part FROM entries ORDER BY session_id, seq`,
      );
      expect(rows.rows).toHaveLength(6);
      for (const r of rows.rows) expect(r.tbl).toBe(r.part);
      expect(rows.rows.map((r) => [r.id, r.label])).toEqual([
        ["s-one-0", null], ["s-one-1", "kept"], ["s-one-2", null],
        ["s-two-0", null], ["s-two-1", "kept"], ["s-two-2", null],
      ]);
      expect(rows.rows[2]!.data).toEqual({ n: 2 });
      const leftover = await client.query("SELECT 1 FROM pg_class WHERE relname = 'entries_unpartitioned'");
      expect(leftover.rows).toHaveLength(0);
    } finally {
      await client.end().catch(() => undefined);
      await rm(before, { recursive: true, force: true });
      await dropTestDatabase(empty.name);
    }
  });
});
