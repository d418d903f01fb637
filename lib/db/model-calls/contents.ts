import "server-only";
/**
 * Content-addressed storage of what model calls sent: one `model_call_contents` row per distinct
 * message, system prompt or tool list, shared by every call and every session.
 *
 * Contract:
 * - The key is sha256 of the canonical JSON (lib/content-address.ts); the stored `data` is
 *   that canonical JSON, so reading a row and hashing it again gives its key back.
 * - `storeContents` first asks which keys exist and sends only the missing contents, so a call
 *   that repeats the whole history ships only its new messages to the server; concurrent
 *   writers of the same content are harmless (ON CONFLICT DO NOTHING).
 * - Rows are never updated. `deleteOrphanContents` removes rows no call references any more
 *   (after sessions were hard-deleted); the RESTRICT foreign keys make it safe under concurrency.
 */
import type { Tx } from "../store/sql";
import { getDb } from "../client";

export type ContentKind = "message" | "system" | "tools";

export interface AddressedContent {
  hash: string;
  kind: ContentKind;
  /** Canonical JSON text. */
  json: string;
  bytes: number;
}

type Reader = Pick<Tx, "$queryRaw">;

/** Inserts the contents the table does not hold yet; returns how many rows were new. */
export async function storeContents(tx: Tx, contents: readonly AddressedContent[]): Promise<number> {
  const unique = new Map<string, AddressedContent>();
  for (const c of contents) if (!unique.has(c.hash)) unique.set(c.hash, c);
  if (unique.size === 0) return 0;
  const existing = await tx.$queryRaw<{ hash: string }[]>`
    SELECT hash FROM model_call_contents WHERE hash = ANY(${[...unique.keys()]}::text[])`;
  for (const row of existing) unique.delete(row.hash);
  if (unique.size === 0) return 0;
  // The canonical texts are spliced into one JSON array without re-serializing them.
  const rows = [...unique.values()].map(
    (c) => `{"hash":${JSON.stringify(c.hash)},"kind":${JSON.stringify(c.kind)},"bytes":${c.bytes},"data":${c.json}}`,
  );
  return tx.$executeRaw`
    INSERT INTO model_call_contents (hash, kind, data, bytes)
    SELECT x.hash, x.kind, x.data, x.bytes
    FROM jsonb_to_recordset(${`[${rows.join(",")}]`}::jsonb) AS x(hash text, kind text, data jsonb, bytes int)
    ON CONFLICT (hash) DO NOTHING`;
}

/** hash → data for the given keys (missing keys are simply absent). */
export async function loadContents(db: Reader, hashes: Iterable<string>): Promise<Map<string, unknown>> {
  const wanted = [...new Set(hashes)];
  const out = new Map<string, unknown>();
  if (wanted.length === 0) return out;
  const rows = await db.$queryRaw<{ hash: string; data: unknown }[]>`
    SELECT hash, data FROM model_call_contents WHERE hash = ANY(${wanted}::text[])`;
  for (const row of rows) out.set(row.hash, row.data);
  return out;
}

/** Deletes contents no call references; returns how many rows went. */
export async function deleteOrphanContents(): Promise<number> {
  return getDb().$executeRaw`
    DELETE FROM model_call_contents c
    WHERE NOT EXISTS (SELECT 1 FROM model_call_messages m WHERE m.hash = c.hash)
      AND NOT EXISTS (
        SELECT 1 FROM model_calls k
        WHERE k.system_hash = c.hash OR k.tools_hash = c.hash OR k.response_hash = c.hash)`;
}
