import "server-only";
/**
 * Keeping an imported file byte for byte ("Download original"), while it streams.
 *
 * Contract: `capture.source` yields the same chunks as the wrapped ByteSource (the import reads
 * it) and keeps a copy. Until `attach` (the import's transaction is open) the copy is buffered —
 * only the lines read before the header is known, at most about the header scan plus one
 * chunk. After `attach`, every ~1 MB is written as one `session_source_chunks` row inside that
 * transaction, so memory stays bounded and a failed import leaves nothing. `finish` writes the
 * rest and the file's size and sha256 on its `session_sources` row.
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import type { FormatId } from "@/lib/formats/types";
import type { ByteSource } from "./line-reader";
import type { Sql } from "./store-sql";

export const SOURCE_CHUNK_BYTES = 1024 * 1024;

function chunksOf(source: ByteSource): AsyncIterable<Uint8Array> {
  if (typeof source === "string") return createReadStream(source, { highWaterMark: SOURCE_CHUNK_BYTES });
  if (typeof (source as ReadableStream<Uint8Array>).getReader === "function") return source as unknown as AsyncIterable<Uint8Array>;
  return source as AsyncIterable<Uint8Array>;
}

export class SourceCapture {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private total = 0;
  private seq = 0;
  private readonly hash = createHash("sha256");
  private target: { sql: Sql; sessionId: string } | null = null;
  readonly source: AsyncIterable<Uint8Array>;

  constructor(input: ByteSource) {
    const inner = chunksOf(input);
    const self = this;
    this.source = {
      async *[Symbol.asyncIterator]() {
        for await (const chunk of inner) {
          const copy = Buffer.from(chunk);
          self.keep(copy);
          if (self.target && self.pendingBytes >= SOURCE_CHUNK_BYTES) await self.write();
          yield chunk;
        }
      },
    };
  }

  private keep(copy: Buffer): void {
    this.hash.update(copy);
    this.total += copy.length;
    this.pending.push(copy);
    this.pendingBytes += copy.length;
  }

  private async write(): Promise<void> {
    if (!this.target || this.pendingBytes === 0) return;
    const data = Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    for (let at = 0; at < data.length; at += SOURCE_CHUNK_BYTES) {
      await this.target.sql.query(`INSERT INTO session_source_chunks (session_id, seq, data) VALUES ($1, $2, $3)`, [
        this.target.sessionId,
        this.seq++,
        data.subarray(at, at + SOURCE_CHUNK_BYTES),
      ]);
    }
  }

  /** Inside the import's transaction, once the session row exists. */
  async attach(sql: Sql, input: { sessionId: string; format: FormatId; fileName: string }): Promise<void> {
    await sql.query(`INSERT INTO session_sources (session_id, format, file_name) VALUES ($1, $2, $3)`, [input.sessionId, input.format, input.fileName]);
    this.target = { sql, sessionId: input.sessionId };
    if (this.pendingBytes >= SOURCE_CHUNK_BYTES) await this.write();
  }

  /** After the whole source was read: the last chunk and the file's facts. */
  async finish(records: number): Promise<void> {
    if (!this.target) return;
    await this.write();
    await this.target.sql.query(`UPDATE session_sources SET bytes = $2, sha256 = $3, records = $4 WHERE session_id = $1`, [
      this.target.sessionId,
      this.total,
      this.hash.digest("hex"),
      records,
    ]);
  }
}
