import "server-only";
/**
 * Fills the usage ledger for sessions stored before it existed (docs/usage.md "The ledger in the
 * database"): each live session without ledger rows, oldest first (so the first-written copy of
 * a response is counted, as it would have been), read once and written in its own transaction.
 * A one-time maintenance step (`npm run cli -- usage rebuild`), never part of a request.
 */
import { getDb } from "../client";
import { getSessionMeta, loadEntries } from "../store/read";
import { prismaSql, withTransaction } from "../store/sql";
import { usageRows } from "@/lib/usage/rows";
import { writeLedger } from "./ledger-write";

/** Returns how many sessions it filled. */
export async function backfillLedger(onSession?: (sessionId: string) => void): Promise<number> {
  const missing = await getDb().$queryRawUnsafe<{ id: string }[]>(
    `SELECT s.id FROM sessions s
     WHERE s.deleted_at IS NULL AND NOT EXISTS (SELECT 1 FROM usage_rows u WHERE u.session_id = s.id)
     ORDER BY s.created_at, s.id`,
  );
  let filled = 0;
  for (const { id } of missing) {
    const meta = await getSessionMeta({ id });
    const entries = await loadEntries({ sessionId: id });
    const rows = usageRows(meta.header, entries);
    if (rows.length === 0) continue;
    await withTransaction((tx) => writeLedger(prismaSql(tx), id, rows), { timeoutMs: 120_000 });
    filled += 1;
    onSession?.(id);
  }
  return filled;
}
