import "server-only";
/**
 * An import's full-text rows (`entry_search`, lib/db/search/search-index.ts states what they
 * are), written in the import's own transaction, so the session commits fully indexed
 * (`search_seq` = its entry count) and no build runs after it.
 *
 * Why, and how: `to_tsvector` is the server's CPU (the 30 MB session of bench/history.ts: 12 MB
 * of text, 2–3 s of one core) and the import's COPY leaves a core partly idle (Node parses,
 * one server process stores). So while the entries stream, a helper connection of its own
 * computes the rows of the entries already read: Node sends each chunk's texts (the same text
 * the COPY stores, storedText) into a temporary table, and reads `to_tsvector` of them back as
 * binary COPY rows, appended to a spill file in the OS temp folder (memory stays bounded by the
 * chunks in flight). Once the entries' COPY is over, inside the import's transaction, the main
 * connection loads the helper's rows so far (one binary COPY into entry_search: tsvector's binary
 * input only checks the lexemes' order, nothing is parsed again) and computes the chunks the
 * helper has not started itself, last first, from the entries it just wrote (set-based), while
 * the helper goes on from the first; then it loads the helper's last rows.
 * The helper writes nothing in the database: a failed or cancelled import leaves no rows.
 *
 * Contract:
 * - `add(seq, text)` per entry, in seq order (text as the COPY stores it, or null); `ready()`
 *   waits while more than MAX_QUEUED_BYTES of text wait for the helper (backpressure).
 * - `write(sql, count)` (in the transaction, after the entries' COPY): every entry with seq <
 *   count and a text has its row, and search_seq = count. Rows are `to_tsvector('simple', text)`
 *   computed by the server either way, so a search finds exactly what it finds on the fly.
 * - Sessions with less than PARALLEL_FROM_BYTES of text never open the helper: `write` computes
 *   their rows in one INSERT … SELECT. If the helper fails (connection refused, an error), its
 *   rows are dropped and `write` computes them all that way: slower, never different.
 * - `dispose()` ends the helper and removes the spill file, whatever happened.
 * - `enabled: false` (the bench's A/B against the path before) makes all of this a no-op: the
 *   session commits unindexed and buildSearchIndex builds its rows afterwards, as before.
 */
import { createReadStream } from "node:fs";
import { type FileHandle, mkdtemp, open, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import pg from "pg";
import { to as copyTo } from "pg-copy-streams";
import { databaseUrl } from "../client";
import { copyFromStdin } from "../copy-stream";
import type { BulkSql } from "../store/sql";
import { SEARCH_ROWS_SQL, WORK_MEM_SQL } from "../search/search-index";
import { COPY_HEADER, COPY_TRAILER, storedText } from "./entry-copy";

/** Text a session needs before a helper connection pays for itself (its start is a few ms); below it, one INSERT … SELECT in the transaction. */
export const PARALLEL_FROM_BYTES = 1024 * 1024;
/** Text per chunk sent to the helper. */
const CHUNK_BYTES = 1024 * 1024;
/** Text that may wait for the helper before the import waits (ready()). */
const MAX_QUEUED_BYTES = 8 * 1024 * 1024;

interface Chunk {
  /** First and past-the-last seq it covers. */
  from: number;
  to: number;
  rows: Buffer[];
  bytes: number;
}

export class SearchRows {
  private pending: Chunk = { from: 0, to: 0, rows: [], bytes: 0 };
  /** Chunks shipped and not started: the helper takes the first, the closing main connection the last. */
  private queue: Chunk[] = [];
  private queuedBytes = 0;
  private total = 0;
  private helper: { client: pg.Client; dir: string; spill: FileHandle; file: string } | null = null;
  private starting: Promise<void> | null = null;
  private running: Promise<void> | null = null;
  /** The chunk the helper computes now. */
  private busy = false;
  /** Bytes of the spill file written (whole chunks) and already loaded into entry_search. */
  private spilled = 0;
  private loaded = 0;
  private failed = false;
  private closing = false;
  private waiters: (() => void)[] = [];

  constructor(
    private readonly sessionId: string,
    private readonly enabled = true,
  ) {}

  add(seq: number, text: string | null): void {
    if (!this.enabled || this.failed) return;
    this.pending.to = seq + 1;
    if (text === null) return;
    const stored = storedText(text);
    const bytes = Buffer.byteLength(stored);
    this.total += bytes;
    const row = Buffer.allocUnsafe(14 + bytes);
    row.writeInt16BE(2, 0);
    row.writeInt32BE(4, 2);
    row.writeInt32BE(seq, 6);
    row.writeInt32BE(bytes, 10);
    row.write(stored, 14, "utf8");
    this.pending.rows.push(row);
    this.pending.bytes += bytes;
    if (this.pending.bytes >= CHUNK_BYTES && this.total >= PARALLEL_FROM_BYTES) this.ship();
  }

  /** Waits while the helper has more than MAX_QUEUED_BYTES of text to go. */
  async ready(): Promise<void> {
    while (this.queuedBytes > MAX_QUEUED_BYTES && !this.failed) await this.changed();
  }

  /**
   * In the transaction, after the entries' COPY: the main connection loads what the helper
   * computed so far, computes the chunks the helper has not started, last first (the helper
   * goes on from the first), and loads the rest as it comes; then search_seq = count.
   */
  async write(sql: BulkSql, count: number): Promise<void> {
    if (!this.enabled) return;
    await sql.query(WORK_MEM_SQL);
    const whole = this.failed || this.starting === null;
    this.closing = true;
    this.notify();
    if (whole) {
      await insertRange(sql, this.sessionId, 0, count);
    } else {
      if (this.pending.to > this.pending.from) this.queue.push(this.pending);
      for (;;) {
        if (this.failed) break;
        if (this.loaded < this.spilled) {
          const to = this.spilled;
          await this.load(sql, this.loaded, to);
          this.loaded = to;
          continue;
        }
        const last = this.queue.pop();
        if (last) {
          this.queuedBytes -= last.bytes;
          await insertRange(sql, this.sessionId, last.from, last.to);
          continue;
        }
        if (!this.busy) break;
        await this.changed();
      }
      await this.running;
      // The helper failed midway: what it had not computed, now here (rows already in: kept).
      if (this.failed) await insertRange(sql, this.sessionId, 0, count, true);
    }
    await sql.query("UPDATE sessions SET search_seq = $2::int WHERE id = $1", [this.sessionId, count]);
  }

  async dispose(): Promise<void> {
    this.closing = true;
    this.notify();
    const h = this.helper;
    if (!h) return;
    await h.client.end().catch(() => undefined);
    await h.spill.close().catch(() => undefined);
    await rm(h.dir, { recursive: true, force: true });
  }

  private changed(): Promise<void> {
    return new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  private notify(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  /** Queues the pending chunk for the helper (started on first use). */
  private ship(): void {
    const chunk = this.pending;
    this.pending = { from: chunk.to, to: chunk.to, rows: [], bytes: 0 };
    this.queue.push(chunk);
    this.queuedBytes += chunk.bytes;
    this.starting ??= this.start().catch(() => this.fail());
    this.running ??= this.drain();
    this.notify();
  }

  private fail(): void {
    this.failed = true;
    this.queue = [];
    this.queuedBytes = 0;
    this.notify();
  }

  private async start(): Promise<void> {
    const client = new pg.Client({ connectionString: databaseUrl() });
    client.on("error", () => undefined);
    const dir = await mkdtemp(path.join(tmpdir(), "arbor-search-"));
    const file = path.join(dir, "rows");
    const spill = await open(file, "w");
    this.helper = { client, dir, spill, file };
    await client.connect();
    // Stored as sent: pglz compression of the texts cost the helper a third of its time.
    await client.query("CREATE TEMP TABLE arbor_search_text (seq int, text text STORAGE EXTERNAL)");
  }

  /** The helper's loop: the first queued chunk, one at a time, until closing and nothing is queued. */
  private async drain(): Promise<void> {
    try {
      await this.starting;
      while (!this.failed) {
        const chunk = this.queue.shift();
        if (!chunk) {
          if (this.closing) break;
          await this.changed();
          continue;
        }
        this.busy = true;
        await this.compute(chunk);
        this.busy = false;
        this.queuedBytes -= chunk.bytes;
        this.notify();
      }
    } catch {
      this.busy = false;
      this.fail();
    }
  }

  /** One chunk's texts in, their tsvectors out (binary COPY rows, header and trailer cut) to the spill file. */
  private async compute(chunk: Chunk): Promise<void> {
    const { client, spill } = this.helper!;
    await pipeline(
      (function* () {
        yield COPY_HEADER;
        yield* chunk.rows;
        yield COPY_TRAILER;
      })(),
      client.query(copyFromStdin("COPY arbor_search_text (seq, text) FROM STDIN (FORMAT binary)")),
    );
    const out: Buffer[] = [];
    const sid = client.escapeLiteral(this.sessionId);
    const stream = client.query(copyTo(`COPY (SELECT ${sid}::text, seq, to_tsvector('simple', text) FROM arbor_search_text) TO STDOUT (FORMAT binary)`));
    for await (const piece of stream) out.push(piece as Buffer);
    const all = Buffer.concat(out);
    if (all.length < COPY_HEADER.length + COPY_TRAILER.length || !all.subarray(0, 11).equals(COPY_HEADER.subarray(0, 11)) || all.readInt32BE(15) !== 0) {
      throw new Error("unexpected COPY TO output");
    }
    const rows = all.subarray(COPY_HEADER.length, all.length - COPY_TRAILER.length);
    await spill.write(rows, 0, rows.length, this.spilled);
    this.spilled += rows.length;
    await client.query("TRUNCATE arbor_search_text");
  }

  /** Bytes [from, to) of the spill file (whole rows) into entry_search, in the transaction. */
  private async load(sql: BulkSql, from: number, to: number): Promise<void> {
    const { file } = this.helper!;
    await pipeline(
      async function* () {
        yield COPY_HEADER;
        yield* createReadStream(file, { start: from, end: to - 1, highWaterMark: 1024 * 1024 });
        yield COPY_TRAILER;
      },
      sql.copyFrom("COPY entry_search (session_id, seq, search) FROM STDIN (FORMAT binary)"),
    );
  }
}

/** Rows of the entries with seq in [from, to), computed by the server from the stored texts. */
async function insertRange(sql: BulkSql, sessionId: string, from: number, to: number, missing = false): Promise<void> {
  if (from >= to) return;
  await sql.query(`INSERT INTO entry_search (session_id, seq, search) ${SEARCH_ROWS_SQL}${missing ? " ON CONFLICT DO NOTHING" : ""}`, [sessionId, from, to]);
}
