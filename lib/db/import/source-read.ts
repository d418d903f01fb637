import "server-only";
/**
 * Reading back the file a session was imported from ("Download original"): the exact bytes, in
 * order, one ~1 MB chunk per query, so a large file is never held whole.
 * Chunks stored compressed (`compression`: lib/db/import/source-codec.ts) are
 * decompressed one at a time.
 * `findSessionSource` gives null for a session with no stored original (created in Arbor, or
 * imported before originals were kept).
 */
import type { FormatId } from "@/lib/formats/types";
import { getDb } from "../client";
import { decodeSourceChunk } from "./source-codec";

export interface SessionSourceInfo {
  sessionId: string;
  format: FormatId;
  fileName: string;
  bytes: number;
  sha256: string;
  records: number;
  /** The file's bytes. Each call starts a new read. */
  chunks(): AsyncGenerator<Uint8Array>;
  stream(): ReadableStream<Uint8Array>;
}

interface SourceRow {
  format: string;
  file_name: string;
  bytes: number;
  sha256: string;
  records: number;
  chunk_count: number;
  compression: string;
}


export async function findSessionSource(input: { sessionId: string }): Promise<SessionSourceInfo | null> {
  const db = getDb();
  const rows = await db.$queryRawUnsafe<SourceRow[]>(
    `SELECT s.format, s.file_name, s.bytes, s.sha256, s.records, s.compression,
            (SELECT count(*)::int FROM session_source_chunks c WHERE c.session_id = s.session_id) AS chunk_count
     FROM session_sources s WHERE s.session_id = $1`,
    input.sessionId,
  );
  const row = rows[0];
  if (!row) return null;
  const { sessionId } = input;
  async function* chunks(): AsyncGenerator<Uint8Array> {
    for (let seq = 0; seq < row!.chunk_count; seq++) {
      const [chunk] = await db.$queryRawUnsafe<{ data: Uint8Array }[]>(`SELECT data FROM session_source_chunks WHERE session_id = $1 AND seq = $2`, sessionId, seq);
      if (!chunk) continue;
      yield new Uint8Array(await decodeSourceChunk(row!.compression, chunk.data));
    }
  }
  return {
    sessionId,
    format: row.format as FormatId,
    fileName: row.file_name,
    bytes: row.bytes,
    sha256: row.sha256,
    records: row.records,
    chunks,
    stream() {
      const it = chunks();
      return new ReadableStream<Uint8Array>({
        async pull(controller) {
          const next = await it.next();
          if (next.done) controller.close();
          else controller.enqueue(next.value);
        },
        async cancel() {
          await it.return(undefined);
        },
      });
    },
  };
}
