import "server-only";
/**
 * The stored findings of the secret scanner (lib/secrets; table secret_findings, docs/secrets.md).
 *
 * Contract:
 * - Findings are written by the writers of the entries they describe, in the same transaction
 *   or statement: the import (each entry whose line passes the pre-filter is scanned as it
 *   streams past; `insertFindings` before the commit), `commitEntries` (store-commit-sql.ts: every commit, chat turns and folder sync
 *   appends included) and the fork (writeWholeSession, which scans the new session's entries).
 *   So a session's findings are exactly those of its entries: a rolled-back write leaves none.
 * - Rows hold the masked form, never the value.
 * - Entries are never rewritten but by pruning, which keeps the original content for undo: the
 *   secrets stay in the store, so their findings stay too (the session page says when one lies
 *   in a pruned output). Soft delete and restore keep them; deleting the session row drops them.
 */
import { scanEntry } from "@/lib/secrets";
import type { SecretField, SecretFinding, SessionSecrets } from "@/lib/secrets/types";
import type { SessionEntry } from "@/lib/session/types";
import { getDb } from "../client";
import { toPgJson } from "../pg-json";
import type { Sql } from "./sql";

/** One finding with its position in a batch of entries (`i`: the entry's index in the batch). */
export interface FindingRow {
  i: number;
  ordinal: number;
  entry_id: string;
  field: SecretField;
  path: string;
  start_offset: number;
  end_offset: number;
  rule: string;
  kind: string;
  masked: string;
}

/** The findings of `entry`, at index `i` of its batch. */
export async function findingRowsOf(entry: SessionEntry, i: number): Promise<FindingRow[]> {
  const found = await scanEntry(entry);
  return found.map((f, ordinal) => ({
    i,
    ordinal,
    entry_id: entry.id,
    field: f.field,
    path: f.path,
    start_offset: f.start,
    end_offset: f.end,
    rule: f.rule,
    kind: f.kind,
    masked: f.masked,
  }));
}

/** The findings of a batch of entries (a commit, a fork), `i` = index in `entries`. */
export async function findingRowsOfAll(entries: readonly SessionEntry[]): Promise<FindingRow[]> {
  const rows: FindingRow[] = [];
  for (let i = 0; i < entries.length; i++) rows.push(...(await findingRowsOf(entries[i]!, i)));
  return rows;
}

/** Inserts findings whose `i` is the entry's seq (import, fork). One statement per 5,000 rows. */
export async function insertFindings(sql: Sql, sessionId: string, rows: readonly FindingRow[]): Promise<void> {
  for (let at = 0; at < rows.length; at += 5000) {
    await sql.query(
      `INSERT INTO secret_findings (session_id, seq, ordinal, entry_id, field, path, start_offset, end_offset, rule, kind, masked)
       SELECT $1, f.i, f.ordinal, f.entry_id, f.field, f.path, f.start_offset, f.end_offset, f.rule, f.kind, f.masked
       FROM json_to_recordset($2::json) AS ${FINDING_RECORD}`,
      [sessionId, toPgJson(rows.slice(at, at + 5000))],
    );
  }
}

/** The record type of a FindingRow in json_to_recordset (shared with the commit statement). */
export const FINDING_RECORD =
  "f(i int, ordinal int, entry_id text, field text, path text, start_offset int, end_offset int, rule text, kind text, masked text)";

/** A session's findings in file order, and their count. */
export async function listSecretFindings(input: { sessionId: string }): Promise<SessionSecrets> {
  const rows = await getDb().secretFinding.findMany({
    where: { sessionId: input.sessionId },
    orderBy: [{ seq: "asc" }, { ordinal: "asc" }],
    select: { entryId: true, seq: true, field: true, path: true, start: true, end: true, rule: true, kind: true, masked: true },
  });
  const findings = rows.map((r): SecretFinding => ({ ...r, field: r.field as SecretField }));
  return { count: findings.length, findings };
}

/** Findings per session, for the sessions listed (sessions without any are left out). */
export async function countSecretFindings(sessionIds: readonly string[]): Promise<Map<string, number>> {
  if (sessionIds.length === 0) return new Map();
  const groups = await getDb().secretFinding.groupBy({ by: ["sessionId"], where: { sessionId: { in: [...sessionIds] } }, _count: { _all: true } });
  return new Map(groups.map((g) => [g.sessionId, g._count._all]));
}
