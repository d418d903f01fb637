import "server-only";
/**
 * Bulk loading of a session's entries with ONE `COPY … FROM STDIN (FORMAT binary)` (into `entries`,
 * routed to the session's partition) for the whole import (lib/db/import/import.ts).
 *
 * Why COPY: one statement streams every row, so the server stores rows while the import is
 * still reading and parsing the file (the two run on different cores), with no per-batch
 * round trip and no batch-sized JSON parameter for the server to parse before it can split it
 * (jsonb_to_recordset). No full-text data is computed in the COPY: each row's text is also handed to
 * the session's SearchRows (search-rows.ts), which computes the entry_search rows beside it.
 *
 * Contract:
 * - `open` starts the COPY on the bulk connection (inside its transaction); `add` encodes a
 *   row; `flush` hands the rows encoded since the last flush (a batch) to the stream, and waits
 *   while the batches still queued in it hold more than MAX_QUEUED_BYTES, so memory stays
 *   bounded by that plus one batch, whatever the file size; `finish` ends the COPY and resolves
 *   once the server has stored every row.
 * - Why batches stay queued, not "wait for drain": the stream drains only once the socket has
 *   handed nearly all of it to the server, which then has no more than the kernel's socket
 *   buffer (~200 kB) to work on while Node prepares the next batch: the two would take turns
 *   on the two cores. With a few batches queued, both stay busy.
 * - `abort(reason)` (on any failure: a bad line, a limit, cancellation) sends CopyFail; the
 *   caller's transaction then rolls back and nothing is left. After abort nothing else may be
 *   called. A server error during the COPY rejects the next `flush` or `finish`. (Duplicate
 *   ids cannot reach the server: the import refuses them first, with their line numbers.)
 */
import { finished } from "node:stream/promises";
import type { Writable } from "node:stream";
import type { EntryRow } from "../store/entry-columns";
import { ENTRY_COPY_COLUMNS, EntryCopyEncoder } from "./entry-copy";
import type { SearchRows } from "./search-rows";
import { toDatabaseError } from "../errors";

/** A connection that can stream a `COPY … FROM STDIN` (withBulkTransaction's). */
export interface CopyTarget {
  copyFrom(text: string): Writable;
}

/** Encoded bytes that may wait in the stream for the socket (a few typical batches). */
const MAX_QUEUED_BYTES = 4 * 1024 * 1024;

export class EntryLoader {
  private failure: unknown;
  /** Per batch in the stream: its size, and a promise resolved once its last chunk is in the socket. */
  private readonly queued: { bytes: number; written: Promise<void> }[] = [];
  private queuedBytes = 0;
  private readonly done: Promise<void>;
  private readonly encoder = new EntryCopyEncoder();

  private constructor(
    private readonly stream: Writable,
    private readonly sessionId: string,
    private readonly search: SearchRows | undefined,
  ) {
    // Raw SQL: COPY has no Prisma equivalent; binary format (see entry-copy.ts).
    this.done = finished(stream).catch((error: unknown) => {
      this.failure = toDatabaseError(error, { fromDriver: true });
      throw this.failure;
    });
    this.done.catch(() => undefined);
    stream.write(this.encoder.header());
  }

  /** `search`, when given, gets every row's text too (its full-text row, search-rows.ts). */
  static open(target: CopyTarget, sessionId: string, search?: SearchRows): EntryLoader {
    return new EntryLoader(target.copyFrom(`COPY entries (${ENTRY_COPY_COLUMNS}) FROM STDIN (FORMAT binary)`), sessionId, search);
  }

  /** Encodes one row (see EntryCopyEncoder.add for `json`). */
  add(row: EntryRow, seq: number, json?: string): void {
    this.encoder.add(this.sessionId, row, seq, json);
    this.search?.add(seq, row.text);
  }

  /**
   * Sends what was added; waits while more than MAX_QUEUED_BYTES are queued, or while the
   * full-text rows' helper has too much to do (backpressure).
   */
  async flush(): Promise<void> {
    this.check();
    await this.search?.ready();
    const bytes = this.encoder.size;
    const chunks = this.encoder.take();
    if (chunks.length === 0) return;
    const last = chunks.pop()!;
    for (const chunk of chunks) this.stream.write(chunk);
    // Resolved on error too: `done` reports the failure.
    this.queued.push({ bytes, written: new Promise((resolve) => this.stream.write(last, () => resolve())) });
    this.queuedBytes += bytes;
    while (this.queuedBytes > MAX_QUEUED_BYTES) {
      const oldest = this.queued.shift()!;
      await Promise.race([oldest.written, this.done]);
      this.queuedBytes -= oldest.bytes;
    }
    this.check();
  }

  async finish(): Promise<void> {
    await this.flush();
    this.stream.end(this.encoder.trailer());
    await this.done;
  }

  abort(reason: unknown): void {
    if (!this.stream.destroyed) this.stream.destroy(reason instanceof Error ? reason : new Error(String(reason)));
  }

  private check(): void {
    if (this.failure !== undefined) throw this.failure;
  }
}
