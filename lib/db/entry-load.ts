import "server-only";
/**
 * Bulk loading of a session's entries with ONE `COPY entries … FROM STDIN (FORMAT binary)` for
 * the whole import (lib/db/import.ts).
 *
 * Why COPY: one statement streams every row, so the server stores rows while the import is
 * still reading and parsing the file (the two run on different cores), with no per-batch
 * round trip and no batch-sized JSON parameter for the server to parse before it can split it
 * (jsonb_to_recordset). No full-text data is computed per row: the session's entry_search rows
 * are built afterwards in set-based steps (lib/db/search-index.ts).
 *
 * Contract:
 * - `open` starts the COPY on the bulk connection (inside its transaction); `add` encodes a
 *   row; `flush` hands the rows encoded since the last flush (a batch) to the stream, and waits
 *   while more than MAX_IN_FLIGHT earlier batches are still queued in it, so memory stays
 *   bounded by a few batches, whatever the file size; `finish` ends the COPY and resolves once
 *   the server has stored every row.
 * - Why batches in flight, not "wait for drain": the stream drains only once the socket has
 *   handed nearly all of it to the server, which then has no more than the kernel's socket
 *   buffer (~200 kB) to work on while Node prepares the next batch: the two would take turns
 *   on the two cores. With a batch or two queued, both stay busy.
 * - `abort(reason)` (on any failure: a bad line, a limit, cancellation) sends CopyFail; the
 *   caller's transaction then rolls back and nothing is left. After abort nothing else may be
 *   called. A server error during the COPY rejects the next `flush` or `finish`. (Duplicate
 *   ids cannot reach the server: the import refuses them first, with their line numbers.)
 */
import { finished } from "node:stream/promises";
import type { Writable } from "node:stream";
import type { EntryRow } from "./entry-columns";
import { ENTRY_COPY_COLUMNS, EntryCopyEncoder } from "./entry-copy";
import { toDatabaseError } from "./errors";

/** A connection that can stream a `COPY … FROM STDIN` (withBulkTransaction's). */
export interface CopyTarget {
  copyFrom(text: string): Writable;
}

/** Batches handed to the stream that may still wait there for the socket. */
const MAX_IN_FLIGHT = 2;

export class EntryLoader {
  private failure: unknown;
  /** Per batch in the stream, resolved once the stream has written its last chunk to the socket. */
  private readonly inFlight: Promise<void>[] = [];
  private readonly done: Promise<void>;
  private readonly encoder = new EntryCopyEncoder();

  private constructor(
    private readonly stream: Writable,
    private readonly sessionId: string,
  ) {
    // Raw SQL: COPY has no Prisma equivalent; binary format (see entry-copy.ts).
    this.done = finished(stream).catch((error: unknown) => {
      this.failure = toDatabaseError(error, { fromDriver: true });
      throw this.failure;
    });
    this.done.catch(() => undefined);
    stream.write(this.encoder.header());
  }

  static open(target: CopyTarget, sessionId: string): EntryLoader {
    return new EntryLoader(target.copyFrom(`COPY entries (${ENTRY_COPY_COLUMNS}) FROM STDIN (FORMAT binary)`), sessionId);
  }

  /** Encodes one row (see EntryCopyEncoder.add for `json`). */
  add(row: EntryRow, seq: number, json?: string): void {
    this.encoder.add(this.sessionId, row, seq, json);
  }

  /** Sends what was added; waits while more than MAX_IN_FLIGHT batches are queued (backpressure). */
  async flush(): Promise<void> {
    this.check();
    const chunks = this.encoder.take();
    if (chunks.length === 0) return;
    const last = chunks.pop()!;
    for (const chunk of chunks) this.stream.write(chunk);
    // Resolved on error too: `done` reports the failure.
    this.inFlight.push(new Promise((resolve) => this.stream.write(last, () => resolve())));
    while (this.inFlight.length > MAX_IN_FLIGHT) await Promise.race([this.inFlight.shift(), this.done]);
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
