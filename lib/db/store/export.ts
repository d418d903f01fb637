import "server-only";
/**
 * Exporting a session as a v3 JSONL file that pi and oh-my-pi can load (session-engine.md §1.1, §1.9).
 *
 * Contract:
 * - `exportSession` checks the session exists (NotFoundError otherwise) and returns its file
 *   name (`exportFileName`, session-engine.md §1.9), the header, and `lines()`: the header line, then every
 *   entry in file order, each string ending with "\n". Entries are read in batches of
 *   `batchSize` by seq, so a large session is never held as one string or one array.
 * - The export is a consistent snapshot: it covers the entries the session had when
 *   `exportSession` ran (seq < entry count), even if appends happen while it streams.
 * - The leaf: files do not store it (session-engine.md §1.6, §18) but Arbor does. When the stored leaf is
 *   not the last entry (or was reset), the header carries `arborLeafId` (the leaf id, or
 *   null). pi and oh-my-pi ignore unknown header fields; our import reads it back, so
 *   export → import restores the same leaf. Nothing else is added.
 * - Entries are written as stored (a pruned tool result is exported pruned). Key order: the
 *   base fields first (type, id, parentId, timestamp), then the rest as stored.
 * - Secrets are masked (lib/secrets maskSecrets, docs/secrets.md) in the header and in every
 *   entry, unless `includeSecrets` (the user chose the originals for this export). A line the
 *   scanner's pre-filter rules out is written without a second look.
 */
import { maskSecrets, mayHoldSecret } from "@/lib/secrets";
import { exportFileName } from "@/lib/session/file/sanitize";
import type { SessionEntry, SessionHeader } from "@/lib/session/types";
import { getDb } from "../client";
import { NotFoundError } from "../errors";
import { entryOf } from "./entry-columns";
import { readSessionMeta } from "./read";

export const EXPORT_BATCH = 1000;

export interface SessionExport {
  sessionId: string;
  /** `<timestamp>_<sessionId>.jsonl` for the download. */
  fileName: string;
  /** The header line as written. */
  header: SessionHeader;
  entryCount: number;
  /** The file, line by line (each with its "\n"). Each call starts a new read. */
  lines(): AsyncGenerator<string>;
  /** The same bytes as a web stream (for a Response body). Cancelling stops the reads. */
  stream(): ReadableStream<Uint8Array>;
}

function ordered<T extends Record<string, unknown>>(value: T, first: readonly string[]): T {
  const out: Record<string, unknown> = {};
  for (const key of first) if (key in value) out[key] = value[key];
  for (const [key, v] of Object.entries(value)) if (!(key in out)) out[key] = v;
  return out as T;
}

const HEADER_KEYS = ["type", "version", "id", "timestamp", "cwd"] as const;
const ENTRY_KEYS = ["type", "id", "parentId", "timestamp"] as const;

export async function exportSession(input: { sessionId: string; batchSize?: number; includeSecrets?: boolean }): Promise<SessionExport> {
  const { sessionId } = input;
  const db = getDb();
  const meta = await readSessionMeta(db, sessionId);
  if (!meta) throw new NotFoundError({ sessionId });
  const batchSize = Math.max(1, input.batchSize ?? EXPORT_BATCH);
  const count = meta.entryCount;

  const last = await db.$queryRaw<{ id: string }[]>`
    SELECT id FROM entries WHERE session_id = ${sessionId} AND seq < ${count}::int ORDER BY seq DESC LIMIT 1`;
  const lastId = last[0]?.id ?? null;
  const { arborLeafId: _stale, ...stored } = meta.header;
  const mask = !input.includeSecrets;
  const full = ordered(
    {
      ...stored,
      id: sessionId,
      ...(meta.leafId !== lastId ? { arborLeafId: meta.leafId } : {}),
    } as SessionHeader,
    HEADER_KEYS,
  );
  const header = mask ? await maskSecrets(full) : full;

  /** The entry's line, masked unless the originals were asked for. */
  async function lineOf(entry: SessionEntry): Promise<string> {
    const line = JSON.stringify(ordered(entry, ENTRY_KEYS));
    if (!mask || !mayHoldSecret(line)) return `${line}\n`;
    return `${JSON.stringify(ordered(await maskSecrets(entry), ENTRY_KEYS))}\n`;
  }

  async function* lines(): AsyncGenerator<string> {
    yield `${JSON.stringify(header)}\n`;
    for (let from = 0; from < count; from += batchSize) {
      const rows = await db.$queryRaw<{ data: string }[]>`
        SELECT data FROM entries
        WHERE session_id = ${sessionId} AND seq >= ${from}::int AND seq < ${Math.min(count, from + batchSize)}::int
        ORDER BY seq`;
      for (const row of rows) yield await lineOf(entryOf(row.data));
    }
  }

  function stream(): ReadableStream<Uint8Array> {
    const encoder = new TextEncoder();
    const it = lines();
    return new ReadableStream<Uint8Array>({
      async pull(controller) {
        // About 64 KB per pull keeps the number of chunks small without buffering much.
        let chunk = "";
        while (chunk.length < 64 * 1024) {
          const next = await it.next();
          if (next.done) {
            if (chunk) controller.enqueue(encoder.encode(chunk));
            controller.close();
            return;
          }
          chunk += next.value;
        }
        controller.enqueue(encoder.encode(chunk));
      },
      async cancel() {
        await it.return(undefined);
      },
    });
  }

  return { sessionId, fileName: exportFileName(typeof header.timestamp === "string" ? header.timestamp : meta.createdAt, sessionId), header, entryCount: count, lines, stream };
}
