/**
 * Shared by the import tests (lib/db/import*.test.ts and others that import): a file's bytes as
 * a stream of chunks, what the database holds, to prove a failed import saved nothing, the
 * ImportError an import must fail with, and a session's stored original and pi v3 export as text.
 */
import { expect } from "vitest";
import { getDb } from "@/lib/db/client";
import { ImportError } from "@/lib/db/errors";
import { exportSession } from "@/lib/db/store/export";
import { findSessionSource } from "@/lib/db/import/source-read";

/** Rows in `sessions` and `entries` of this test file's database. */
export async function counts(): Promise<{ sessions: number; entries: number }> {
  const [row] = await getDb().$queryRaw<{ sessions: number; entries: number }[]>`
    SELECT (SELECT count(*)::int FROM sessions) AS sessions, (SELECT count(*)::int FROM entries) AS entries`;
  return row!;
}

/** The error `p` rejects with, which must be an ImportError (a resolved `p` fails the test). */
export async function failure(p: Promise<unknown>): Promise<ImportError> {
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ImportError);
  return error as ImportError;
}

/**
 * `content` (text as UTF-8, or bytes) as an import source of chunks of `size` bytes, the way a
 * file or upload arrives. Small odd sizes split lines and multi-byte characters across chunks.
 */
export async function* chunked(content: string | Uint8Array, size = 64 * 1024): AsyncGenerator<Uint8Array> {
  const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content;
  for (let i = 0; i < bytes.length; i += size) yield bytes.slice(i, i + size);
}

/** The session's stored original ("Download original"), as text. */
export async function originalText(sessionId: string): Promise<string> {
  const source = await findSessionSource({ sessionId });
  const parts: Buffer[] = [];
  for await (const c of source!.chunks()) parts.push(Buffer.from(c));
  return Buffer.concat(parts).toString("utf8");
}

/** The session exported as pi v3 JSONL. */
export async function exportedJsonl(sessionId: string): Promise<string> {
  const file = await exportSession({ sessionId });
  let text = "";
  for await (const line of file.lines()) text += line;
  return text;
}
