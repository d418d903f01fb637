import "server-only";
/**
 * Writes of the usage ledger (`usage_rows`, docs/usage.md "The ledger in the database").
 *
 * Contract:
 * - Rows are written with the entries that carry them, never by a scan: `commitEntries` inserts
 *   them in its one statement (`ledgerInsertCtes`), import and fork in their bulk transaction
 *   (`writeLedger`). Each row is priced when written: the recorded cost, else the user's price
 *   (price_overrides, applied in SQL; price-overrides.ts reprices stored rows when it changes), else
 *   the catalogue's price in force at the row's date (lib/usage/prices.ts).
 * - `counted`: of the rows sharing a dedupe key (lib/usage/rows.ts `ledgerKey`) exactly one in a
 *   live session is counted, the first written; reports sum counted rows only. The partial unique
 *   index usage_rows(dedupe_key) WHERE counted makes it hold under concurrent writers
 *   (`ledgerInsertCtes`).
 * - A soft delete hands its counted rows to the earliest copy in another live session
 *   (`releaseCounted`); a restore counts its rows whose key no live session counts (`claimCounted`).
 * - Pruning rewrites an entry's content, not the call it records: the ledger keeps the row
 *   (the money was spent).
 */
import type { SessionEntry } from "@/lib/session/types";
import { priceRow } from "@/lib/usage/prices";
import { ledgerKey, type UsageRow, usageRowOf } from "@/lib/usage/rows";
import { toPgJson } from "../pg-json";
import { isUniqueViolation, type Sql } from "../store/sql";

interface LedgerPayloadRow {
  entry_id: string;
  kind: string;
  at: string;
  provider: string;
  model: string;
  input: number;
  output: number;
  cache_read: number;
  cache_write: number;
  reasoning: number;
  recorded: number | null;
  cost: number | null;
  source: string;
  key: string;
  first: boolean;
}

/** The ledger rows of `entries` (new entries of one session), as the JSON the statements expand. */
export function ledgerPayload(entries: readonly SessionEntry[], fallback = Date.now()): LedgerPayloadRow[] {
  const rows: UsageRow[] = [];
  for (const entry of entries) {
    const row = usageRowOf(entry, fallback);
    if (row) rows.push(row);
  }
  return payloadOf(rows);
}

/** Priced payload rows; `first` marks the first row of each key in the batch. */
export function payloadOf(rows: readonly UsageRow[]): LedgerPayloadRow[] {
  const seen = new Set<string>();
  return rows.map((row) => {
    const key = ledgerKey(row);
    const first = !seen.has(key);
    seen.add(key);
    const priced = priceRow(row);
    return {
      entry_id: row.entryId,
      kind: row.kind,
      at: new Date(row.at).toISOString(),
      provider: row.provider,
      model: row.model,
      input: row.input,
      output: row.output,
      cache_read: row.cacheRead,
      cache_write: row.cacheWrite,
      reasoning: row.reasoning,
      recorded: row.recordedCostMicros ?? null,
      cost: priced.costMicros ?? null,
      // The catalogue's price (or unknown) where the file records none; the insert applies the user's prices.
      source: priced.source,
      key,
      first,
    };
  });
}

const RECORD = `x(entry_id text, kind text, at timestamptz, provider text, model text, input bigint, output bigint,
  cache_read bigint, cache_write bigint, reasoning bigint, recorded bigint, cost bigint, source text, key text, first boolean)`;

const COLUMNS = `session_id, entry_id, kind, at, provider, model, input, output, cache_read, cache_write,
      reasoning, recorded_cost_micros, cost_micros, catalogue_cost_micros, price_source, dedupe_key, counted`;

/**
 * The priced rows of a payload (`json`) for session `session`, `counted` being the SQL of the
 * last column. The price: recorded, else the user's price for the model (price_overrides, in
 * SQL), else the payload's catalogue price.
 */
function payloadRows(session: string, json: string, counted: string, gate = ""): string {
  return `SELECT ${session}, x.entry_id, x.kind, x.at, x.provider, x.model, x.input, x.output,
      x.cache_read, x.cache_write, x.reasoning, x.recorded,
      CASE WHEN x.recorded IS NOT NULL THEN x.recorded WHEN o.model IS NOT NULL
        THEN arbor_override_cost(x.input, x.output, x.cache_read, x.cache_write, o) ELSE x.cost END,
      CASE WHEN x.recorded IS NULL THEN x.cost END,
      CASE WHEN x.recorded IS NOT NULL THEN 'recorded' WHEN o.model IS NOT NULL THEN 'override' ELSE x.source END,
      x.key, ${counted}
    FROM json_to_recordset(${json}) AS ${RECORD}${gate}
      LEFT JOIN price_overrides o ON o.model = x.model`;
}

/**
 * The insert of a payload (`json`, a json parameter) into session `session`'s ledger, as two
 * WITH items (`${name}_c`, `${name}`) of the caller's statement; `gate` is an extra FROM item
 * (e.g. commit's `upd`, so nothing is written when the commit is refused).
 *
 * Counted once, race-free: the first row of each key in the payload goes in with counted = true
 * under ON CONFLICT DO NOTHING, which the partial unique index usage_rows(dedupe_key) WHERE counted
 * arbitrates (a concurrent writer's uncommitted row of the key makes this one wait, then yield);
 * every row that did not go in then goes in uncounted (a row whose (session, entry) exists is
 * skipped by both). Keys in sorted order, so two writers lock keys in the same order.
 */
export function ledgerInsertCtes(name: string, session: string, json: string, gate = ""): string {
  return `${name}_c AS (
    INSERT INTO usage_rows (${COLUMNS})
    ${payloadRows(session, json, "true", gate)} WHERE x.first ORDER BY x.key
    ON CONFLICT DO NOTHING RETURNING entry_id
  ), ${name} AS (
    INSERT INTO usage_rows (${COLUMNS})
    ${payloadRows(session, json, "false", gate)} WHERE x.entry_id NOT IN (SELECT entry_id FROM ${name}_c) ORDER BY x.key
    ON CONFLICT (session_id, entry_id) DO NOTHING RETURNING 1
  )`;
}

/**
 * A new session's rows in one plain INSERT: a key's first row in the payload is counted unless a
 * counted row of the key is already visible. Without ON CONFLICT each row is one heap and index
 * insert (no speculative insertion) and the payload is parsed once, not twice: with the two
 * indexes of migration 20270128000000, 470 → 310 ms of the server's CPU for the 16,000 rows of the
 * 30 MB session of bench/history.ts (docs/benchmarks-history.md, IMP2). A concurrent writer that counts one of the keys first makes
 * the partial unique index refuse the row: writeLedger then redoes the rows the ON CONFLICT way.
 */
const PLAIN_INSERT = `INSERT INTO usage_rows (${COLUMNS})
  ${payloadRows("$1", "$2::json", "x.first AND NOT EXISTS (SELECT 1 FROM usage_rows c WHERE c.dedupe_key = x.key AND c.counted)")}
  ORDER BY x.key`;

const BATCH = 2000;

/**
 * Writes the ledger rows of a whole new session (import, fork, backfill) in the caller's
 * transaction: plain inserts (PLAIN_INSERT) inside a savepoint; if any row is refused as a
 * duplicate (another transaction counted one of the keys meanwhile, or the session got rows of
 * its own), everything since the savepoint is undone and written with ledgerInsertCtes, which
 * yields to what is there. Either way the rows and their `counted` are the same.
 */
export async function writeLedger(sql: Sql, sessionId: string, rows: readonly UsageRow[]): Promise<void> {
  const payload = payloadOf(rows);
  if (payload.length === 0) return;
  const batches: string[] = [];
  for (let i = 0; i < payload.length; i += BATCH) batches.push(toPgJson(payload.slice(i, i + BATCH)));
  await sql.query("SAVEPOINT arbor_ledger");
  try {
    for (const json of batches) await sql.query(PLAIN_INSERT, [sessionId, json]);
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    await sql.query("ROLLBACK TO SAVEPOINT arbor_ledger");
    for (const json of batches) await sql.query(`WITH ${ledgerInsertCtes("usg", "$1", "$2::json")} SELECT 1`, [sessionId, json]);
  }
  await sql.query("RELEASE SAVEPOINT arbor_ledger");
}

/**
 * On soft delete: the session's counted rows stop counting, and the earliest live copy of each
 * key counts instead. The heirs are uncounted rows (a key's one counted row is the one released),
 * which usage_rows_uncounted_key_idx indexes by key.
 */
export async function releaseCounted(sql: Sql, sessionId: string): Promise<void> {
  await sql.query(
    `WITH rel AS (
       UPDATE usage_rows SET counted = false WHERE session_id = $1 AND counted RETURNING dedupe_key
     ), heir AS (
       SELECT DISTINCT ON (r.dedupe_key) r.session_id, r.entry_id
       FROM usage_rows r JOIN sessions s ON s.id = r.session_id
       WHERE r.dedupe_key IN (SELECT dedupe_key FROM rel) AND NOT r.counted AND r.session_id <> $1 AND s.deleted_at IS NULL
       ORDER BY r.dedupe_key, r.at, r.session_id, r.entry_id
     )
     UPDATE usage_rows u SET counted = true FROM heir h WHERE u.session_id = h.session_id AND u.entry_id = h.entry_id`,
    [sessionId],
  );
}

/** On restore: the session counts each of its keys that no live session counts (its first row of the key). */
export async function claimCounted(sql: Sql, sessionId: string): Promise<void> {
  await sql.query(
    `UPDATE usage_rows u SET counted = true FROM (
       SELECT DISTINCT ON (r.dedupe_key) r.entry_id FROM usage_rows r
       WHERE r.session_id = $1 AND NOT EXISTS (SELECT 1 FROM usage_rows c WHERE c.dedupe_key = r.dedupe_key AND c.counted)
       ORDER BY r.dedupe_key, r.at, r.entry_id
     ) p
     WHERE u.session_id = $1 AND u.entry_id = p.entry_id`,
    [sessionId],
  );
}
