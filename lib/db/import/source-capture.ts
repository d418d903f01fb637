import "server-only";
/**
 * The one writer of the stored original ("Download original"): an imported file kept byte for
 * byte while it streams (SourceCapture), and the new bytes of a synced file added to it
 * (extendStoredSource).
 *
 * Contract: `capture.source` yields the same chunks as the wrapped ByteSource (the import reads
 * it) and keeps a copy in a spill file in the OS temp folder (memory stays bounded by one
 * chunk; the database connection stays free for the entries' COPY, which holds it until the
 * last entry). `attach` (inside the import's transaction, once the session row exists) creates
 * the `session_sources` row; `finish` (after the last entry) writes the spill file as
 * `session_source_chunks` rows in the same transaction — a failed import leaves nothing — with
 * the file's size and sha256. `dispose` removes the spill file, whatever happened.
 *
 * Compression (`session_sources.compression` = SOURCE_COMPRESSION, source-codec.ts): each ~1 MB
 * piece of the file is compressed on Node's thread pool while the import goes on — at most
 * MAX_COMPRESSING pieces at a time, so memory stays bounded — and stored as one chunk row.
 * PostgreSQL's own pglz compression of the same bytes took longer than the rest of a small
 * import and kept the server busy; ours is smaller and runs beside the import.
 * Spill file format: per piece, its compressed length (4 bytes, big-endian), then the bytes.
 *
 * `extendStoredSource` appends bytes [stored size, `bytes`) of the file to the session's stored
 * original, in ~1 MB chunks compressed the way the import stored the rest, and sets the
 * original's size, sha256 and record count: all in one transaction. A session imported before
 * originals were kept has none, and gets none; a file no longer than the stored original adds
 * nothing (the caller checked that the stored original is the file's start).
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { type FileHandle, mkdtemp, open, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { FormatId } from "@/lib/formats/types";
import type { ByteSource } from "./line-reader";
import { encodeSourceChunk, SOURCE_COMPRESSION } from "./source-codec";
import { prismaSql, type Sql, withTransaction } from "../store/sql";

export const SOURCE_CHUNK_BYTES = 1024 * 1024;
/** Pieces being compressed at once (each ~SOURCE_CHUNK_BYTES). */
const MAX_COMPRESSING = 2;

/** The original's facts once its chunks are all stored. */
interface SourceFacts {
  bytes: number;
  sha256: string;
  records: number;
}

function insertChunk(sql: Sql, sessionId: string, seq: number, data: Buffer): Promise<unknown> {
  return sql.query(`INSERT INTO session_source_chunks (session_id, seq, data) VALUES ($1, $2, $3)`, [sessionId, seq, data]);
}

function setFacts(sql: Sql, sessionId: string, facts: SourceFacts): Promise<unknown> {
  return sql.query(`UPDATE session_sources SET bytes = $2, sha256 = $3, records = $4 WHERE session_id = $1`, [
    sessionId,
    facts.bytes,
    facts.sha256,
    facts.records,
  ]);
}

function chunksOf(source: ByteSource): AsyncIterable<Uint8Array> {
  if (typeof source === "string") return createReadStream(source, { highWaterMark: SOURCE_CHUNK_BYTES });
  if (typeof (source as ReadableStream<Uint8Array>).getReader === "function") return source as unknown as AsyncIterable<Uint8Array>;
  return source as AsyncIterable<Uint8Array>;
}

export class SourceCapture {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private total = 0;
  private readonly hash = createHash("sha256");
  private spill: { dir: string; file: string; handle: FileHandle } | null = null;
  /** Pieces being compressed, in file order. */
  private compressing: Promise<Buffer>[] = [];
  private target: { sql: Sql; sessionId: string } | null = null;
  /** The kept original's sha256 (hex), once `finish` stored it. */
  sha256: string | undefined;
  readonly source: AsyncIterable<Uint8Array>;

  constructor(input: ByteSource) {
    const inner = chunksOf(input);
    const self = this;
    this.source = {
      async *[Symbol.asyncIterator]() {
        for await (const chunk of inner) {
          self.keep(Buffer.from(chunk));
          if (self.pendingBytes >= SOURCE_CHUNK_BYTES) await self.spillPending();
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

  /** Starts compressing the pending bytes; writes finished pieces (all of them when `all`). */
  private async spillPending(all = false): Promise<void> {
    if (this.pendingBytes > 0) {
      const data = Buffer.concat(this.pending, this.pendingBytes);
      this.pending = [];
      this.pendingBytes = 0;
      const piece = encodeSourceChunk(SOURCE_COMPRESSION, data);
      piece.catch(() => undefined); // awaited below; a disposed capture may drop it
      this.compressing.push(piece);
    }
    while (this.compressing.length > (all ? 0 : MAX_COMPRESSING - 1)) {
      const piece = await this.compressing.shift()!;
      await this.write(piece);
    }
  }

  private async write(piece: Buffer): Promise<void> {
    if (!this.spill) {
      const dir = await mkdtemp(path.join(tmpdir(), "arbor-import-"));
      const file = path.join(dir, "original");
      this.spill = { dir, file, handle: await open(file, "w", 0o600) };
    }
    const length = Buffer.alloc(4);
    length.writeUInt32BE(piece.length);
    await this.spill.handle.write(length);
    await this.spill.handle.write(piece);
  }

  /** Inside the import's transaction, once the session row exists. */
  async attach(sql: Sql, input: { sessionId: string; format: FormatId; fileName: string }): Promise<void> {
    await sql.query(`INSERT INTO session_sources (session_id, format, file_name, compression) VALUES ($1, $2, $3, $4)`, [
      input.sessionId,
      input.format,
      input.fileName,
      SOURCE_COMPRESSION,
    ]);
    this.target = { sql, sessionId: input.sessionId };
  }

  /** After the whole source was read and the entries written: the chunks and the file's facts. */
  async finish(records: number): Promise<void> {
    if (!this.target) return;
    const { sql, sessionId } = this.target;
    await this.spillPending(true);
    let seq = 0;
    if (this.spill) {
      await this.spill.handle.close();
      const spilled = this.spill;
      this.spill = { ...spilled, handle: await open(spilled.file, "r") };
      const length = Buffer.alloc(4);
      for (let position = 0; ; ) {
        const head = await this.spill.handle.read(length, 0, 4, position);
        if (head.bytesRead < 4) break;
        const piece = Buffer.alloc(length.readUInt32BE(0));
        await this.spill.handle.read(piece, 0, piece.length, position + 4);
        position += 4 + piece.length;
        await insertChunk(sql, sessionId, seq++, piece);
      }
    }
    this.sha256 = this.hash.digest("hex");
    await setFacts(sql, sessionId, { bytes: this.total, sha256: this.sha256, records });
  }

  /** Removes the spill file (after finish, or after a failed or cancelled import). */
  async dispose(): Promise<void> {
    this.compressing = [];
    const spill = this.spill;
    this.spill = null;
    if (!spill) return;
    await spill.handle.close().catch(() => undefined);
    await rm(spill.dir, { recursive: true, force: true });
  }
}

/** Appends bytes [stored size, `bytes`) of `file` to the session's stored original (see the header). */
export async function extendStoredSource(input: { sessionId: string; file: string } & SourceFacts): Promise<void> {
  const { sessionId, file } = input;
  await withTransaction(async (tx) => {
    const sql = prismaSql(tx);
    // Raw SQL: FOR UPDATE (a second sync of the session waits for this one) has no typed form.
    const [src] = await sql.query<{ bytes: number; chunks: number; compression: string | null }>(
      `SELECT bytes, compression, (SELECT count(*)::int FROM session_source_chunks c WHERE c.session_id = s.session_id) AS chunks
       FROM session_sources s WHERE s.session_id = $1 FOR UPDATE`,
      [sessionId],
    );
    if (!src) return; // imported before originals were kept
    if (input.bytes <= src.bytes) return; // a shorter copy of what is stored adds nothing
    const handle = await open(file, "r");
    try {
      let seq = src.chunks;
      const chunk = Buffer.alloc(SOURCE_CHUNK_BYTES);
      for (let pos = src.bytes; pos < input.bytes; ) {
        const want = Math.min(SOURCE_CHUNK_BYTES, input.bytes - pos);
        const { bytesRead } = await handle.read(chunk, 0, want, pos);
        if (bytesRead === 0) break;
        pos += bytesRead;
        await insertChunk(sql, sessionId, seq++, await encodeSourceChunk(src.compression, Buffer.from(chunk.subarray(0, bytesRead))));
      }
    } finally {
      await handle.close();
    }
    await setFacts(sql, sessionId, input);
  });
}

/**
 * Replaces the session's stored original by `bytes` (a document format, rewritten whole by its
 * agent, never appended: docs/formats.md "Single-document sessions"); no-op for a session
 * imported before originals were kept.
 */
export async function replaceStoredSource(input: { sessionId: string; bytes: Buffer; records: number }): Promise<void> {
  const { sessionId, bytes } = input;
  await withTransaction(async (tx) => {
    const sql = prismaSql(tx);
    // Raw SQL: FOR UPDATE (a second sync of the session waits for this one) has no typed form.
    const [src] = await sql.query<{ compression: string | null }>(`SELECT compression FROM session_sources WHERE session_id = $1 FOR UPDATE`, [sessionId]);
    if (!src) return;
    await tx.sessionSourceChunk.deleteMany({ where: { sessionId } });
    for (let pos = 0, seq = 0; pos < bytes.length; pos += SOURCE_CHUNK_BYTES, seq++) {
      await insertChunk(sql, sessionId, seq, await encodeSourceChunk(src.compression, bytes.subarray(pos, pos + SOURCE_CHUNK_BYTES)));
    }
    await setFacts(sql, sessionId, { bytes: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex"), records: input.records });
  });
}
