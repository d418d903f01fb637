/**
 * Where an import's time goes (not part of `npm run bench`): each stage of lib/db/import/import.ts
 * timed on its own, on the bench's 100k-entry session (or `--n N`).
 *
 *   tsx --conditions=react-server bench/import-profile.ts [--n 100000] [--only js|db|live]
 *
 * JS stages are cumulative (read + parse, + migrate + columns, + serialisation). Database
 * stages load the prepared rows into scratch copies of `entries` (CREATE TABLE … LIKE), one
 * transaction each, rolled back, so only the server's share is timed: the current
 * jsonb_to_recordset insert, COPY, and COPY with the former generated full-text column, without
 * compression, without an index, and followed by the set-based full-text build (lib/db/search/search-index.ts).
 * `--variants 0,4` runs only those database stages (by index, see `variants`).
 * `--only live` (embedded server only) runs the real importSession three times and splits each
 * one's time: wall, this process's CPU (the thread pool's gzip included), the server's CPU
 * (bench/lib/cpu-split.ts), how often both were busy at once, and the server's time per
 * statement (pg_stat_statements).
 */
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { Readable } from "node:stream";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { ENTRY_COPY_COLUMNS, EntryCopyEncoder } from "@/lib/db/import/entry-copy";
import { type EntryRow, toEntryRow } from "@/lib/db/store/entry-columns";
import { LineReader } from "@/lib/db/import/line-reader";
import { toPgJson } from "@/lib/db/pg-json";
import { parseJsonlLine } from "@/lib/session/file/jsonl";
import { createStreamMigrator } from "@/lib/session/file/migrate-stream";
import type { SessionHeader } from "@/lib/session/types";
import { benchSession } from "./lib/sessions";
import { argOf } from "./lib/args";

const n = Number(argOf("n") ?? 100_000);
const only = argOf("only");
const BATCH = 1000;

async function timed(name: string, fn: () => Promise<unknown>, base?: number): Promise<number> {
  const t = performance.now();
  await fn();
  const ms = performance.now() - t;
  console.log(`${name.padEnd(58)} ${ms.toFixed(0).padStart(7)} ms${base ? `  (${(ms / base).toFixed(2)}× read + parse)` : ""}`);
  return ms;
}

async function* objects(file: string): AsyncGenerator<Record<string, unknown>> {
  const reader = new LineReader({ source: file, file, maxBytes: Number.POSITIVE_INFINITY, maxLineLength: 2 ** 26 });
  for await (const line of reader.lines()) {
    const { value } = parseJsonlLine(line.text, line.number);
    if (value) yield value;
  }
}

async function rowsOf(file: string, each: (row: EntryRow) => void): Promise<void> {
  let migrate: ((e: Record<string, unknown>) => unknown) | undefined;
  const seen = new Map<string, number>();
  for await (const value of objects(file)) {
    if (!migrate) {
      migrate = createStreamMigrator(value as unknown as SessionHeader).migrate;
      continue;
    }
    const row = toEntryRow(migrate(value) as never);
    seen.set(row.id, seen.size);
    each(row);
  }
}

async function jsStages(file: string): Promise<void> {
  const base = await timed("read + parseJsonlLine", async () => {
    for await (const _ of objects(file));
  });
  await timed("+ migrate + toEntryRow (sanitize, columns)", () => rowsOf(file, () => undefined), base);
  await timed("+ batch JSON payload (toPgJson, today)", async () => {
    let batch: unknown[] = [];
    await rowsOf(file, (r) => {
      batch.push({ id: r.id, parent_id: r.parentId, type: r.type, ts: r.timestamp, seq: 0, data: r.data, role: r.role, tokens: r.tokens, text: r.text });
      if (batch.length < BATCH) return;
      toPgJson(batch);
      batch = [];
    });
  }, base);
  await timed("+ binary COPY encoding (EntryCopyEncoder)", async () => {
    const enc = new EntryCopyEncoder();
    let seq = 0;
    await rowsOf(file, (r) => {
      enc.add("s", r, seq++);
      if (enc.size > 2 ** 20) enc.take();
    });
  }, base);
}

async function dbStages(file: string, url: string): Promise<void> {
  const rows: EntryRow[] = [];
  await rowsOf(file, (r) => rows.push(r));
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const run = async (name: string, ddl: string, load: (table: string) => Promise<void>) => {
    await client.query("BEGIN");
    await client.query("CREATE TEMP TABLE IF NOT EXISTS _noop (x int)");
    await client.query(`CREATE TABLE prof_entries (LIKE entries INCLUDING ALL)`);
    if (ddl) await client.query(ddl);
    await client.query("INSERT INTO sessions (id, header) VALUES ('s', '{}') ON CONFLICT DO NOTHING");
    await timed(name, () => load("prof_entries"));
    await client.query("ROLLBACK");
  };
  const insertJson = (search: string) => async (table: string) => {
    for (let i = 0; i < rows.length; i += BATCH) {
      const payload = rows.slice(i, i + BATCH).map((r, j) => ({ id: r.id, parent_id: r.parentId, type: r.type, ts: r.timestamp, seq: i + j, data: r.data, role: r.role, tokens: r.tokens, text: r.text }));
      await client.query(
        `INSERT INTO ${table} (session_id, id, parent_id, type, "timestamp", seq, data, role, tokens, text${search ? ", search" : ""})
         SELECT 's', x.id, x.parent_id, x.type, x.ts, x.seq, x.data, x.role, x.tokens, x.text${search ? `, ${search}` : ""}
         FROM jsonb_to_recordset($1::jsonb) AS x(id text, parent_id text, type text, ts text, seq int, data jsonb, role text, tokens int, text text)`,
        [toPgJson(payload)],
      );
    }
  };
  const copy = (opts: { noText?: boolean; jsonb?: boolean } = {}) => async (table: string) => {
    const enc = new EntryCopyEncoder(opts.jsonb ? "jsonb" : "json");
    const chunks = function* () {
      yield enc.header();
      for (let i = 0; i < rows.length; i++) {
        enc.add("s", opts.noText ? { ...rows[i]!, text: null } : rows[i]!, i);
        if (enc.size > 2 ** 20) yield* enc.take();
      }
      yield* enc.take();
      yield enc.trailer();
    };
    await pipeline(Readable.from(chunks()), client.query(copyFrom(`COPY ${table} (${ENTRY_COPY_COLUMNS}) FROM STDIN (FORMAT binary)`)));
  };
  const only = argOf("variants")?.split(",");
  const variants: [string, string, (t: string) => Promise<void>][] = [
    ["INSERT jsonb_to_recordset", "", insertJson("")],
    ["COPY binary (today: json, no full-text data, no pglz)", "", copy()],
    ["COPY binary, + generated search column + GIN (before)", "ALTER TABLE prof_entries ADD COLUMN search tsvector GENERATED ALWAYS AS (to_tsvector('simple', coalesce(text, ''))) STORED; CREATE INDEX ON prof_entries USING gin (search)", copy()],
    ["COPY binary, compressed (pglz)", "ALTER TABLE prof_entries ALTER COLUMN data SET STORAGE EXTENDED, ALTER COLUMN text SET STORAGE EXTENDED", copy()],
    ["COPY binary, data as jsonb (before), compressed", "ALTER TABLE prof_entries ALTER COLUMN data TYPE jsonb, ALTER COLUMN data SET STORAGE EXTENDED, ALTER COLUMN text SET STORAGE EXTENDED", copy({ jsonb: true })],
    ["COPY binary, without the (session_id, parent_id) index", "DROP INDEX prof_entries_session_id_parent_id_idx", copy()],
    ["COPY binary, without the text column's values", "", copy({ noText: true })],
    ["COPY binary, then the full-text rows of the session (set-based)", "CREATE TEMP TABLE prof_search (LIKE entry_search INCLUDING ALL)", async (t) => {
      await copy()(t);
      await client.query(`INSERT INTO prof_search SELECT session_id, seq, to_tsvector('simple', text) FROM ${t} WHERE text IS NOT NULL`);
    }],
  ];
  for (const [i, v] of variants.entries()) if (!only || only.includes(String(i))) await run(...v);
  await client.end();
}

/** The real import, three times (the first also warms up), with its CPU split and statements. */
async function liveStages(file: string): Promise<void> {
  const { openBenchDatabase } = await import("./lib/database");
  const { measureCpuSplit } = await import("./lib/cpu-split");
  const { importSession } = await import("@/lib/db");
  const db = await openBenchDatabase();
  const stats = new pg.Client({ connectionString: db.statsUrl });
  await stats.connect();
  try {
    const pidFile = path.join(process.cwd(), ".data", "postgres-bench", "postmaster.pid");
    if (!existsSync(pidFile)) throw new Error("--only live measures the embedded bench server's processes: unset DATABASE_URL");
    const postmaster = Number((await readFile(pidFile, "utf8")).split("\n")[0]);
    for (let round = 0; round < 3; round++) {
      if (db.statementStats) await stats.query("SELECT pg_stat_statements_reset()");
      const split = await measureCpuSplit(postmaster, () => importSession({ source: file, asCopy: true }));
      const pct = (x: number) => `${Math.round(x * 100)}%`;
      console.log(
        `importSession ${round + 1}: wall ${split.wallMs.toFixed(0)} ms; Node CPU ${split.nodeMs.toFixed(0)} ms; server CPU ≥ ${split.serverMs.toFixed(0)} ms;` +
          ` 100 ms samples: both busy ${pct(split.both)}, only Node ${pct(split.onlyNode)}, only the server ${pct(split.onlyServer)}`,
      );
      if (!db.statementStats) continue;
      const top = await stats.query<{ ms: number; calls: string; query: string }>(
        `SELECT total_exec_time::float8 AS ms, calls::text, left(regexp_replace(query, '\\s+', ' ', 'g'), 60) AS query
         FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
         WHERE d.datname = current_database() AND query NOT ILIKE '%pg_stat_statements%' ORDER BY total_exec_time DESC LIMIT 8`,
      );
      for (const r of top.rows) console.log(`   ${r.ms.toFixed(0).padStart(6)} ms ×${r.calls} ${r.query}`);
    }
  } finally {
    await stats.end();
    await db.close();
  }
}

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), "arbor-profile-"));
  try {
    const s = await benchSession(n, dir);
    console.log(`${n} entries, ${(s.bytes / 2 ** 20).toFixed(1)} MB`);
    if (only === "live") return await liveStages(s.file);
    if (only !== "db") await jsStages(s.file);
    if (only !== "js") {
      const { openBenchDatabase } = await import("./lib/database");
      const db = await openBenchDatabase();
      try {
        await dbStages(s.file, db.url);
      } finally {
        await db.close();
      }
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
process.exit(0);
