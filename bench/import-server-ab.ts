/**
 * The server's share of an import, stage by stage, in variants (not part of `npm run bench`):
 * the bench's 30 MB pi session (37,000 entries, or `--n N`) prepared in memory once, then each
 * variant run in a transaction of its own that is rolled back, the variants alternating round
 * by round (medians of `--rounds`, default 5). A variant's DDL (an index dropped, a trigger
 * disabled) is committed before its transaction and undone after it (not inside it: a relation
 * rewritten or created in the transaction would skip WAL under wal_level = minimal).
 *
 *   tsx --conditions=react-server bench/import-server-ab.ts [--n 37000] [--rounds 5] [--only ledger,entries,search]
 *
 * Each variant's figure is the CPU time of the server process serving the connection (from /proc:
 * what the variant costs the machine, little moved by the load) and its wall time.
 * Stages (each times only the server's statements; the rows are encoded before the clock starts),
 * each with the schema and statements before round IMP2 (docs/benchmarks-history.md) rebuilt by
 * DDL in the transaction, today's, and variants that tell where the rest goes:
 * - ledger: the session's usage rows (lib/db/usage/ledger-write.ts).
 * - entries: the entries' binary COPY (lib/db/import/entry-copy.ts) into `entries`.
 * - search: after the entries' COPY (untimed), the full-text rows as an INSERT … SELECT
 *   (SEARCH_ROWS_SQL), and to_tsvector alone.
 */
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { from as copyFrom, to as copyTo } from "pg-copy-streams";
import { COPY_HEADER, COPY_TRAILER, ENTRY_COPY_COLUMNS, EntryCopyEncoder, storedText } from "@/lib/db/import/entry-copy";
import { toEntryRow } from "@/lib/db/store/entry-columns";
import { type UsageRow, usageRowOf } from "@/lib/usage/rows";
import { processCpuMs } from "./lib/cpu-split";
import { benchSession } from "./lib/sessions";
import { formatMs, median } from "./lib/stats";
import { argOf } from "./lib/args";

const n = Number(argOf("n") ?? 37_000);
const rounds = Number(argOf("rounds") ?? 5);
const only = argOf("only")?.split(",");

/** `ddl` runs (committed) before the variant's transaction, `undo` after it. */
type Variant = { name: string; ddl?: string[]; undo?: string[]; run: (c: pg.Client) => Promise<void>; setup?: (c: pg.Client) => Promise<void> };

async function main(): Promise<void> {
  const { openBenchDatabase } = await import("./lib/database");
  const { ledgerInsertCtes, writeLedger, payloadOf } = await import("@/lib/db/usage/ledger-write");
  const { toPgJson } = await import("@/lib/db/pg-json");
  const { SEARCH_ROWS_SQL, WORK_MEM_SQL } = await import("@/lib/db/search/search-index");
  const dir = await mkdtemp(path.join(tmpdir(), "arbor-server-ab-"));
  const db = await openBenchDatabase();
  const c = new pg.Client({ connectionString: db.statsUrl });
  await c.connect();
  try {
    const s = await benchSession(n, dir);
    const fallback = Date.parse(s.header.timestamp) || 0;
    const rows = s.entries.map((e) => toEntryRow(e));
    const usage: UsageRow[] = s.entries.map((e) => usageRowOf(e, fallback)).filter((r): r is UsageRow => r !== undefined);
    const textBytes = rows.reduce((a, r) => a + (r.text ? Buffer.byteLength(r.text) : 0), 0);
    console.log(`${n} entries, ${(s.bytes / 2 ** 20).toFixed(1)} MB; ${usage.length} ledger rows; ${(textBytes / 2 ** 20).toFixed(1)} MB of text`);
    const sid = "server-ab";
    const enc = new EntryCopyEncoder();
    const chunks: Buffer[] = [enc.header()];
    rows.forEach((r, i) => {
      enc.add(sid, r, i);
      if (enc.size > 2 ** 20) chunks.push(...enc.take());
    });
    chunks.push(...enc.take(), enc.trailer());
    const copyEntries = (cl: pg.Client) => pipeline(Readable.from(chunks), cl.query(copyFrom(`COPY entries (${ENTRY_COPY_COLUMNS}) FROM STDIN (FORMAT binary)`)));
    const backend = (await c.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid;
    const sql = { query: async <T>(text: string, params: readonly unknown[] = []) => (await c.query(text, [...params])).rows as T[] };

    // The ledger write before IMP2: ON CONFLICT statements (lib/db/usage/ledger-write.ts ledgerInsertCtes), four indexes.
    const onConflict = async () => {
      const payload = payloadOf(usage);
      for (let i = 0; i < payload.length; i += 2000) await c.query(`WITH ${ledgerInsertCtes("usg", "$1", "$2::json")} SELECT 1`, [sid, toPgJson(payload.slice(i, i + 2000))]);
    };
    const searchRows = async (cl: pg.Client) => {
      await cl.query(WORK_MEM_SQL);
      await cl.query(`INSERT INTO entry_search (session_id, seq, search) ${SEARCH_ROWS_SQL}`, [sid, 0, n + 1]);
    };
    // The full-text helper's two statements (lib/db/import/search-rows.ts), on all texts at once.
    const texts: Buffer[] = [COPY_HEADER];
    rows.forEach((r, seq) => {
      if (r.text === null) return;
      const t = Buffer.from(storedText(r.text));
      const b = Buffer.allocUnsafe(14);
      b.writeInt16BE(2, 0);
      b.writeInt32BE(4, 2);
      b.writeInt32BE(seq, 6);
      b.writeInt32BE(t.length, 10);
      texts.push(b, t);
    });
    texts.push(COPY_TRAILER);
    const helperTable = async (cl: pg.Client) => {
      await cl.query("CREATE TEMP TABLE arbor_search_text (seq int, text text STORAGE EXTERNAL) ON COMMIT DROP");
    };
    const textsIn = (cl: pg.Client) => pipeline(Readable.from(texts), cl.query(copyFrom("COPY arbor_search_text (seq, text) FROM STDIN (FORMAT binary)")));
    const vectorsOut = async (cl: pg.Client) => {
      const out = cl.query(copyTo(`COPY (SELECT ${cl.escapeLiteral(sid)}::text, seq, to_tsvector('simple', text) FROM arbor_search_text) TO STDOUT (FORMAT binary)`));
      for await (const _ of out);
    };
    // The rows the helper computes (binary COPY rows, header and trailer included), then their load (search-rows.ts `load`).
    let vectors: Buffer[] = [];
    const computedRows = async (cl: pg.Client) => {
      if (vectors.length > 0) return;
      await helperTable(cl);
      await textsIn(cl);
      vectors = [];
      for await (const piece of cl.query(copyTo(`COPY (SELECT ${cl.escapeLiteral(sid)}::text, seq, to_tsvector('simple', text) FROM arbor_search_text) TO STDOUT (FORMAT binary)`))) {
        vectors.push(piece as Buffer);
      }
    };
    const loadRows = async (cl: pg.Client) => {
      await cl.query(WORK_MEM_SQL);
      await pipeline(Readable.from(vectors), cl.query(copyFrom("COPY entry_search (session_id, seq, search) FROM STDIN (FORMAT binary)")));
    };
    // DDL runs committed before a variant and is undone after it: a relation rewritten or created
    // in the measured transaction would skip WAL (wal_level = minimal), which the import never does.
    const fk = "ALTER TABLE usage_rows ADD CONSTRAINT usage_rows_session_id_fkey FOREIGN KEY (session_id) REFERENCES sessions(id) ON DELETE CASCADE ON UPDATE CASCADE";
    const dropFk = "ALTER TABLE usage_rows DROP CONSTRAINT usage_rows_session_id_fkey";
    const parentIndex = "CREATE INDEX entries_session_id_parent_id_idx ON entries (session_id, parent_id)";
    const stages: Record<string, Variant[]> = {
      ledger: [
        {
          name: "before: ON CONFLICT statements, 4 indexes, key",
          ddl: [fk, "CREATE INDEX usage_rows_counted_at_idx ON usage_rows (counted, at)", "DROP INDEX usage_rows_uncounted_key_idx", "CREATE INDEX usage_rows_dedupe_key_idx ON usage_rows (dedupe_key)"],
          undo: [dropFk, "DROP INDEX usage_rows_counted_at_idx", "DROP INDEX usage_rows_dedupe_key_idx", "CREATE INDEX usage_rows_uncounted_key_idx ON usage_rows (dedupe_key) WHERE NOT counted"],
          run: onConflict,
        },
        { name: "plain inserts (writeLedger), 2 indexes, key", ddl: [fk], undo: [dropFk], run: () => writeLedger(sql, sid, usage) },
        { name: "now: plain inserts, 2 indexes, no key", run: () => writeLedger(sql, sid, usage) },
        {
          name: "now, without the rollup trigger",
          ddl: ["ALTER TABLE usage_rows DISABLE TRIGGER usage_rows_inserted"],
          undo: ["ALTER TABLE usage_rows ENABLE TRIGGER usage_rows_inserted"],
          run: () => writeLedger(sql, sid, usage),
        },
      ],
      entries: [
        {
          name: "before: data json (its input checked)",
          ddl: ["ALTER TABLE entries ALTER COLUMN data TYPE json USING data::json, ALTER COLUMN data SET STORAGE EXTERNAL"],
          undo: ["ALTER TABLE entries ALTER COLUMN data TYPE text, ALTER COLUMN data SET STORAGE EXTERNAL"],
          run: copyEntries,
        },
        // Rewritten first like the json variant's table (its DDL): the COPY's cost depends on how fresh the indexes are.
        { name: "now: data text", ddl: ["VACUUM FULL entries"], run: copyEntries },
        { name: "now, without (session_id, parent_id)", ddl: ["DROP INDEX entries_session_id_parent_id_idx"], undo: [parentIndex], run: copyEntries },
        {
          name: "now, no index at all",
          ddl: ["DROP INDEX entries_session_id_parent_id_idx", "DROP INDEX entries_session_id_seq_key", "ALTER TABLE entries DROP CONSTRAINT entries_pkey"],
          undo: ["ALTER TABLE entries ADD CONSTRAINT entries_pkey PRIMARY KEY (session_id, id)", "CREATE UNIQUE INDEX entries_session_id_seq_key ON entries (session_id, seq)", parentIndex],
          run: copyEntries,
        },
      ],
      search: [
        { name: "rows: INSERT … SELECT to_tsvector (with GIN)", setup: copyEntries, run: searchRows },
        {
          name: "rows without the GIN index",
          ddl: ["DROP INDEX entry_search_search_idx"],
          undo: ["CREATE INDEX entry_search_search_idx ON entry_search USING gin (search)"],
          setup: copyEntries,
          run: searchRows,
        },
        {
          name: "to_tsvector alone (sum of lengths)",
          setup: copyEntries,
          run: async (cl) => {
            await cl.query(`SELECT sum(length(to_tsvector('simple', text))) FROM entries WHERE session_id = $1 AND text IS NOT NULL`, [sid]);
          },
        },
        {
          name: "to_tsvector of the texts of all but tool results",
          setup: copyEntries,
          run: async (cl) => {
            await cl.query(
              `SELECT sum(length(to_tsvector('simple', text))) FROM entries WHERE session_id = $1 AND text IS NOT NULL AND role IS DISTINCT FROM 'toolResult'`,
              [sid],
            );
          },
        },
        { name: "helper: the texts into its temp table (COPY)", setup: helperTable, run: textsIn },
        {
          name: "helper: to_tsvector out of it (COPY TO)",
          setup: async (cl) => {
            await helperTable(cl);
            await textsIn(cl);
          },
          run: vectorsOut,
        },
        {
          name: "load: the computed rows into entry_search (COPY, GIN)",
          setup: async (cl) => {
            await computedRows(cl);
          },
          run: loadRows,
        },
        {
          name: "load, search stored uncompressed (EXTERNAL)",
          ddl: ["ALTER TABLE entry_search ALTER COLUMN search SET STORAGE EXTERNAL"],
          undo: ["ALTER TABLE entry_search ALTER COLUMN search SET STORAGE EXTENDED"],
          setup: computedRows,
          run: loadRows,
        },
        {
          name: "load, without the GIN index",
          ddl: ["DROP INDEX entry_search_search_idx"],
          undo: ["CREATE INDEX entry_search_search_idx ON entry_search USING gin (search)"],
          setup: computedRows,
          run: loadRows,
        },
      ],
    };
    for (const [stage, variants] of Object.entries(stages)) {
      if (only && !only.includes(stage)) continue;
      const times = variants.map(() => [] as number[]);
      const cpus = variants.map(() => [] as number[]);
      for (let round = 0; round <= rounds; round++) {
        const order = variants.map((_, i) => i);
        if (round % 2 === 1) order.reverse();
        for (const i of order) {
          const v = variants[i]!;
          for (const d of v.ddl ?? []) await c.query(d);
          await c.query("BEGIN");
          try {
            await c.query("INSERT INTO sessions (id, header) VALUES ($1, '{}')", [sid]);
            await v.setup?.(c);
            const t = performance.now();
            const cpu = processCpuMs(backend);
            await v.run(c);
            // Round 0 warms up.
            if (round > 0) {
              times[i]!.push(performance.now() - t);
              cpus[i]!.push(processCpuMs(backend) - cpu);
            }
          } finally {
            await c.query("ROLLBACK");
            for (const d of v.undo ?? []) await c.query(d);
          }
        }
      }
      console.log(`\n${stage} (medians of ${rounds}, alternating): the backend's CPU (its wall time)`);
      for (const [i, v] of variants.entries()) {
        console.log(`  ${v.name.padEnd(52)} CPU ${formatMs(median(cpus[i]!)).padStart(7)} (${formatMs(median(times[i]!))}); CPU ${cpus[i]!.map(formatMs).join(" / ")}`);
      }
    }
  } finally {
    await c.end();
    await db.close();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
process.exit(0);
