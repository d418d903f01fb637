/**
 * entries.data as text (migration 20270128000001): the entries stored before it keep their JSON
 * text byte for byte, and the column stays stored as sent (EXTERNAL, no compression), as the
 * full-text vectors are since migration 20270128000003. Reading,
 * pruning (which looks inside the JSON) and exporting entries stored as text are the store's
 * own tests (store.test.ts, fork-prune.test.ts, export.test.ts).
 */
import { cp, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { createEmptyDatabase, dropTestDatabase, useTestDatabase } from "@/test/db";
import { getDb } from "../client";
import { migrate } from "@/lib/postgres";

useTestDatabase();

describe("the migration of entries.data to text", () => {
  it("keeps every stored entry's JSON text as it was, stored uncompressed", async () => {
    const empty = await createEmptyDatabase("arbor_data_text");
    const before = await mkdtemp(path.join(tmpdir(), "arbor-migrations-"));
    const client = new pg.Client({ connectionString: empty.url });
    // Spacing and key order as a file may write them: json kept the text, and text must too.
    const texts = [`{"type":"message", "id":"a",  "message":{"role":"user","content":"héllo \\"you\\""}}`, `{ "b" : [1, 2.50, null] }`];
    try {
      await cp(path.join(process.cwd(), "prisma/migrations"), before, { recursive: true });
      for (const name of await readdir(before)) if (/^\d/.test(name) && name >= "20270128000001_entries_data_text") await rm(path.join(before, name), { recursive: true });
      await migrate(empty.url, before);
      await client.connect();
      await client.query(`INSERT INTO sessions (id, header, cwd, created_at, updated_at, last_activity_at) VALUES ('s', '{}', '', now(), now(), now())`);
      for (const [i, text] of texts.entries()) {
        await client.query(`INSERT INTO entries (session_id, id, type, "timestamp", seq, data) VALUES ('s', $1, 'message', 't', $2, $3)`, [`e${i}`, i, text]);
      }
      const typeBefore = await client.query<{ t: string }>("SELECT format_type(atttypid, atttypmod) AS t FROM pg_attribute WHERE attrelid = 'entries'::regclass AND attname = 'data'");
      expect(typeBefore.rows[0]!.t).toBe("json");

      await migrate(empty.url);
      const column = await client.query<{ rel: string; t: string; storage: string }>(
        `SELECT attrelid::regclass::text AS rel, format_type(atttypid, atttypmod) AS t, attstorage AS storage FROM pg_attribute
         WHERE attname = 'data' AND attrelid IN ('entries'::regclass, 'entries_p00'::regclass, 'entries_p15'::regclass) ORDER BY 1`,
      );
      expect(column.rows).toEqual([
        { rel: "entries", t: "text", storage: "e" },
        { rel: "entries_p00", t: "text", storage: "e" },
        { rel: "entries_p15", t: "text", storage: "e" },
      ]);
      const rows = await client.query<{ data: string; type: string }>("SELECT data, pg_typeof(data)::text AS type FROM entries ORDER BY seq");
      expect(rows.rows).toEqual(texts.map((data) => ({ data, type: "text" })));
    } finally {
      await client.end().catch(() => undefined);
      await rm(before, { recursive: true, force: true });
      await dropTestDatabase(empty.name);
    }
  });
});

describe("the columns of an import's bulk", () => {
  it("stores entries' JSON and full-text vectors as sent, never trying to compress them", async () => {
    const columns = await getDb().$queryRawUnsafe<{ col: string; storage: string }[]>(
      `SELECT attrelid::regclass::text || '.' || attname AS col, attstorage::text AS storage FROM pg_attribute
       WHERE (attrelid::regclass::text || '.' || attname) IN ('entries.data', 'entries.text', 'entry_search.search') ORDER BY 1`,
    );
    expect(columns).toEqual([
      { col: "entries.data", storage: "e" },
      { col: "entries.text", storage: "e" },
      { col: "entry_search.search", storage: "e" },
    ]);
  });
});
