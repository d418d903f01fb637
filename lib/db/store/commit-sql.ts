import "server-only";
/**
 * The ONE statement of `commitEntries` (commit.ts): checks, leaf compare-and-set, entry
 * inserts, label columns and the session's bookkeeping as data-modifying CTEs of a single
 * statement, so a commit is one round trip and one implicit transaction.
 *
 * How each guarantee holds in one statement:
 * - CAS: `upd` updates the session row only if it is live and its leaf is the expected one; the
 *   UPDATE takes the row lock, and a writer that waited for it re-checks the WHERE on the row
 *   the winner committed (READ COMMITTED re-evaluation), so of several writers expecting the
 *   same leaf exactly one updates. Everything else joins `upd`, so no row of a losing or
 *   refused commit is written.
 * - Collisions and missing references are computed in `hits` from the statement's snapshot and
 *   gate `upd`. An entry committed concurrently under an unchanged leaf is invisible there,
 *   but a reused id still fails on the primary key (23505 → IdCollisionError by the caller).
 * - seq comes from `upd`'s RETURNING (the locked, current row), never from the snapshot.
 * - Labels: data-modifying CTEs do not see each other's rows, so labels of entries inserted
 *   by this batch are written by the INSERT itself and only older targets are UPDATEd.
 * - Full-text rows (entry_search): a session whose index is complete (search_seq = entry_count)
 *   stays complete — `upd` advances search_seq with entry_count and `srch` indexes the new
 *   entries; a session still being indexed after its import (lib/db/search/search-index.ts) leaves
 *   them to that step (search matches unindexed entries on the fly meanwhile).
 * - Secrets found in the new entries (`sec`) are inserted like the entries: joined to `upd`, with
 *   the seq `upd` gives, so a refused commit writes none.
 * - Usage ledger rows (lib/db/usage/ledger-write.ts) of the new entries are inserted by `usg`,
 *   gated by `upd` like the entries.
 * - The final SELECT reports why nothing was written (no session, deleted, refused checks);
 *   if everything looked fine in the snapshot the update lost a race: a conflict.
 */
import type { EntryRow } from "./entry-columns";
import { toPgJson } from "../pg-json";
import { FINDING_RECORD, type FindingRow } from "./secret-findings";
import { ledgerInsertCtes, ledgerPayload } from "../usage/ledger-write";

export interface CommitStatementInput {
  sessionId: string;
  expectedLeafId: string | null;
  newLeafId: string | null;
  rows: readonly EntryRow[];
  newIds: readonly string[];
  /** Ids that must already exist in the session. */
  needed: readonly string[];
  labels: ReadonlyMap<string, string | null>;
  model: string | null;
  title: string | null;
  /** Secrets found in `rows` (`i` = index in `rows`), inserted with them (secret-findings.ts). */
  secrets: readonly FindingRow[];
}

export interface CommitStatementRow {
  /** Set when the commit was written. */
  entry_count: number | null;
  rev: number | null;
  /** The session row as the statement's snapshot saw it (null: no such session). */
  leaf_id: string | null;
  exists: boolean;
  deleted: boolean;
  /** New ids already used (or referenced as a parent) in the session. */
  collisions: string[];
  /** Needed ids the session does not have. */
  missing: string[];
}

/**
 * The PostgreSQL channel a commit notifies (payload `{"id":session id,"rev":new rev}`, JSON).
 * NOTIFY is delivered when the transaction commits, to every listening connection, so every app
 * process and a CLI sync reach every open page (lib/runs/session-events.ts listens).
 */
export const SESSION_CHANNEL = "arbor_sessions";

const SQL = `
WITH input AS (
  SELECT x.* FROM json_to_recordset($2::json)
    AS x(id text, parent_id text, type text, ts text, i int, data json, role text, tokens int, text text)
), labels AS (
  SELECT l.target, l.label FROM jsonb_to_recordset($3::jsonb) AS l(target text, label text)
), hits AS (
  SELECT e.id AS hit, 'id' AS kind FROM entries e
  WHERE e.session_id = $1 AND (e.id = ANY($4::text[]) OR e.id = ANY($5::text[]))
  UNION ALL
  SELECT DISTINCT e.parent_id, 'parent' FROM entries e WHERE e.session_id = $1 AND e.parent_id = ANY($4::text[])
), verdict AS (
  SELECT
    COALESCE((SELECT array_agg(DISTINCT hit) FROM hits WHERE hit = ANY($4::text[])), '{}') AS collisions,
    COALESCE((SELECT array_agg(n) FROM unnest($5::text[]) AS n WHERE n NOT IN (SELECT hit FROM hits WHERE kind = 'id')), '{}') AS missing
), upd AS (
  UPDATE sessions SET leaf_id = $6::text, entry_count = entry_count + $7::int,
    rev = rev + 1, last_activity_at = now(), updated_at = now(),
    model = COALESCE($8::text, model), title = COALESCE(title, $9::text),
    search_seq = CASE WHEN search_seq = entry_count THEN entry_count + $7::int ELSE search_seq END
  WHERE id = $1 AND deleted_at IS NULL AND leaf_id IS NOT DISTINCT FROM $10::text
    AND (SELECT cardinality(collisions) = 0 AND cardinality(missing) = 0 FROM verdict)
  RETURNING entry_count, rev, search_seq
), srch AS (
  INSERT INTO entry_search (session_id, seq, search)
  SELECT $1, upd.entry_count - $7::int + x.i, to_tsvector('simple', x.text)
  FROM input x CROSS JOIN upd
  WHERE upd.search_seq = upd.entry_count AND x.text IS NOT NULL
  RETURNING 1
), ins AS (
  INSERT INTO entries (session_id, id, parent_id, type, "timestamp", seq, data, role, tokens, text, label)
  SELECT $1, x.id, x.parent_id, x.type, x.ts, upd.entry_count - $7::int + x.i, x.data, x.role, x.tokens, x.text, l.label
  FROM input x CROSS JOIN upd LEFT JOIN labels l ON l.target = x.id
  RETURNING 1
), sec AS (
  INSERT INTO secret_findings (session_id, seq, ordinal, entry_id, field, path, start_offset, end_offset, rule, kind, masked)
  SELECT $1, upd.entry_count - $7::int + f.i, f.ordinal, f.entry_id, f.field, f.path, f.start_offset, f.end_offset, f.rule, f.kind, f.masked
  FROM json_to_recordset($11::json) AS ${FINDING_RECORD} CROSS JOIN upd
  RETURNING 1
), lab AS (
  UPDATE entries AS e SET label = l.label FROM labels l, upd
  WHERE e.session_id = $1 AND e.id = l.target AND NOT (l.target = ANY($4::text[]))
  RETURNING 1
), ntf AS (
  SELECT pg_notify('${SESSION_CHANNEL}', json_build_object('id', $1::text, 'rev', upd.rev)::text) FROM upd
), ${ledgerInsertCtes("usg", "$1", "$12::json", " CROSS JOIN upd")}
SELECT upd.entry_count, upd.rev, s.leaf_id, s.id IS NOT NULL AS exists, s.deleted_at IS NOT NULL AS deleted,
  v.collisions, v.missing
FROM verdict v LEFT JOIN upd ON true LEFT JOIN ntf ON true LEFT JOIN sessions s ON s.id = $1`;

/** The statement's text and parameters. */
export function commitStatement(input: CommitStatementInput): { text: string; params: unknown[] } {
  const payload = input.rows.map((r, i) => ({
    id: r.id,
    parent_id: r.parentId,
    type: r.type,
    ts: r.timestamp,
    i,
    data: r.data,
    role: r.role,
    tokens: r.tokens,
    text: r.text,
  }));
  const labels = [...input.labels].map(([target, label]) => ({ target, label }));
  return {
    text: SQL,
    params: [
      input.sessionId,
      toPgJson(payload),
      toPgJson(labels),
      [...input.newIds],
      [...input.needed],
      input.newLeafId,
      input.rows.length,
      input.model,
      input.title,
      input.expectedLeafId,
      toPgJson(input.secrets),
      toPgJson(ledgerPayload(input.rows.map((r) => r.data))),
    ],
  };
}
