import "server-only";
/**
 * Persisting tool-output pruning (session-engine.md §8 "Integration", §1.9 "Rewrites") so a prune can be
 * shown and undone.
 *
 * Contract:
 * - `applyPrune` stores the pruned tool-result messages (the engine's pruneToolOutputs output:
 *   notice content + prunedAt) in ONE transaction. Before the first prune of an entry its
 *   stored content is kept in `pruned_original`; a second prune keeps the first original.
 *   The original is what the store holds (its content before this prune); `originalContent`
 *   (the agent's record) is used only if the stored entry was somehow pruned already without
 *   a kept original.
 * - `undoPrune` puts the original content back and removes `prunedAt`; entries that are not
 *   pruned are left alone. One transaction.
 * - `getPrunedOriginals` returns the kept originals, for showing what a prune removed.
 * - Both bump the session's `rev` and set `rewrite_rev` to it (they rewrite entries in place,
 *   so a cached copy must reload: lib/db/read-model) and return the new rev with the entries.
 * - Only `message` entries with role `toolResult` can be pruned; any other id (or an unknown
 *   one) throws NotFoundError and nothing is written. The `text` column keeps the original
 *   words, so search still finds a pruned output; `tokens` follows the current content.
 */
import type { SessionEntry, ToolResultMessage } from "@/lib/session/types";
import { getDb } from "../client";
import { entryOf, entryTokens } from "./entry-columns";
import { NotFoundError } from "../errors";
import { toPgJson } from "../pg-json";
import { sanitizeForPersist } from "@/lib/session/file/sanitize";
import { noteRewritten } from "../read-model";
import { type Tx, withTransaction } from "./sql";

export interface PrunedEntry {
  entryId: string;
  /** The message after pruning (content = the notice, prunedAt set). */
  message: ToolResultMessage;
  /** The content before pruning, as the caller saw it (fallback only, see the header). */
  originalContent?: unknown;
}

type Row = { id: string; data: string; pruned_original: unknown };

/** The rewritten entries as stored, and the session's rev after the rewrite (unchanged when none). */
export interface RewriteResult {
  entries: SessionEntry[];
  rev: number | null;
}

const NOTHING: RewriteResult = { entries: [], rev: null };

async function bumpRewrite(tx: Tx, sessionId: string): Promise<number> {
  const [row] = await tx.$queryRaw<{ rev: number }[]>`
    UPDATE sessions SET rev = rev + 1, rewrite_rev = rev + 1, updated_at = now() WHERE id = ${sessionId} RETURNING rev`;
  return row?.rev ?? 0;
}

function missing(sessionId: string, wanted: readonly string[], found: Iterable<string>): void {
  const have = new Set(found);
  const absent = wanted.find((id) => !have.has(id));
  if (absent !== undefined) {
    throw new NotFoundError({ sessionId, entryId: absent, message: `Entry ${absent} not found or not a tool result` });
  }
}

export async function applyPrune(input: { sessionId: string; pruned: readonly PrunedEntry[] }): Promise<RewriteResult> {
  const { sessionId } = input;
  if (input.pruned.length === 0) return NOTHING;
  const payload = input.pruned.map((p) => {
    const message = sanitizeForPersist(p.message);
    return { id: p.entryId, message, original: p.originalContent ?? null, tokens: entryTokens({ type: "message", message }) };
  });
  const result = await withTransaction(async (tx) => {
    // data is JSON text (migration 20270128000001): looked into as json, rewritten as jsonb's text.
    const rows = await tx.$queryRaw<{ id: string; data: string }[]>`
      UPDATE entries AS e SET
        pruned_original = COALESCE(
          e.pruned_original,
          CASE WHEN e.data::json -> 'message' -> 'prunedAt' IS NOT NULL THEN x.original END,
          (e.data::json -> 'message' -> 'content')::jsonb),
        data = jsonb_set(e.data::jsonb, '{message}', x.message)::text,
        tokens = x.tokens
      FROM jsonb_to_recordset(${toPgJson(payload)}::jsonb) AS x(id text, message jsonb, original jsonb, tokens int)
      WHERE e.session_id = ${sessionId} AND e.id = x.id AND e.type = 'message' AND e.role = 'toolResult'
      RETURNING e.id, e.data`;
    missing(sessionId, payload.map((p) => p.id), rows.map((r) => r.id));
    return { entries: rows.map((r) => entryOf(r.data)), rev: await bumpRewrite(tx, sessionId) };
  });
  noteRewritten({ sessionId, ...result });
  return result;
}

export async function undoPrune(input: { sessionId: string; entryIds: readonly string[] }): Promise<RewriteResult> {
  const { sessionId } = input;
  if (input.entryIds.length === 0) return NOTHING;
  const result = await withTransaction(async (tx): Promise<RewriteResult> => {
    const rows = await tx.$queryRaw<Row[]>`
      SELECT id, data, pruned_original FROM entries
      WHERE session_id = ${sessionId} AND id = ANY(${[...input.entryIds]}::text[]) AND type = 'message' AND role = 'toolResult'
      FOR UPDATE`;
    missing(sessionId, input.entryIds, rows.map((r) => r.id));
    const restored = rows
      .filter((r) => r.pruned_original !== null)
      .map((r) => {
        const stored = entryOf(r.data);
        const { prunedAt: _dropped, ...message } = (stored as unknown as { message: ToolResultMessage }).message;
        const data = { ...stored, message: { ...message, content: r.pruned_original } } as SessionEntry;
        return { id: r.id, data, tokens: entryTokens(data) };
      });
    if (restored.length === 0) return NOTHING;
    await tx.$executeRaw`
      UPDATE entries AS e SET data = x.data::text, tokens = x.tokens, pruned_original = NULL
      FROM jsonb_to_recordset(${toPgJson(restored)}::jsonb) AS x(id text, data jsonb, tokens int)
      WHERE e.session_id = ${sessionId} AND e.id = x.id`;
    return { entries: restored.map((r) => r.data), rev: await bumpRewrite(tx, sessionId) };
  });
  noteRewritten({ sessionId, ...result });
  return result;
}

/** entryId → the content the entry had before it was pruned (only pruned entries). */
export async function getPrunedOriginals(input: { sessionId: string; entryIds?: readonly string[] }): Promise<Map<string, unknown>> {
  const ids = input.entryIds ? [...input.entryIds] : null;
  const rows = await getDb().$queryRaw<{ id: string; pruned_original: unknown }[]>`
    SELECT id, pruned_original FROM entries
    WHERE session_id = ${input.sessionId} AND pruned_original IS NOT NULL
      AND (${ids}::text[] IS NULL OR id = ANY(${ids}::text[]))
    ORDER BY seq`;
  return new Map(rows.map((r) => [r.id, r.pruned_original]));
}
