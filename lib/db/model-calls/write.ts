import "server-only";
/**
 * The statements of `recordModelCall` (model-calls.ts): at most one read and ONE write.
 *
 * - Base: the session's previous chat call and its whole hash list (`readChatBase`, one
 *   recursive query), needed only to plan a chat call's list as a delta (lists.ts).
 *   This process remembers the last chat call it recorded per session (`rememberBase`), so a
 *   turn normally skips the read. A remembered call is a valid base even when another process
 *   recorded later calls meanwhile: a call's list never changes; the delta is just longer.
 * - Write (`writeCall`): contents, the call row and its list rows as data-modifying CTEs of one
 *   statement. Foreign keys are checked at the end of the statement, so the rows may reference
 *   each other. Contents go with ON CONFLICT DO NOTHING; only the contents the base does not
 *   already cover are sent (the kept prefix was stored with the base). `seq` is max + 1 in the
 *   statement's snapshot: two concurrent recorders can compute the same seq, and the loser fails
 *   on the (session_id, seq) unique key and retries (`isSeqRace`), which replaces the former
 *   per-session advisory lock.
 */
import type { AddressedContent } from "./contents";
import type { ListBase, ListPlan } from "./lists";
import { toPgJson } from "../pg-json";
import { isUniqueViolation, type Tx } from "../store/sql";

type Db = Pick<Tx, "$queryRawUnsafe">;

const REMEMBERED = 16;
const remembered = new Map<string, ListBase>();

/** The base this process last recorded for the session, if any. */
export function rememberedBase(sessionId: string): ListBase | undefined {
  return remembered.get(sessionId);
}

export function rememberBase(sessionId: string, base: ListBase): void {
  remembered.delete(sessionId);
  remembered.set(sessionId, base);
  for (const key of remembered.keys()) {
    if (remembered.size <= REMEMBERED) break;
    remembered.delete(key);
  }
}

export function forgetBase(sessionId: string): void {
  remembered.delete(sessionId);
}

/** The session's latest chat call with its hash list, or null when it has none. */
export async function readChatBase(db: Db, sessionId: string): Promise<ListBase | null> {
  const rows = await db.$queryRawUnsafe<{ id: string; chain_depth: number; message_count: number; position: number | null; hash: string | null }[]>(
    `WITH RECURSIVE prev AS (
       SELECT id, chain_depth, message_count FROM model_calls
       WHERE session_id = $1 AND kind = 'chat' ORDER BY seq DESC LIMIT 1
     ), chain AS (
       SELECT c.id, c.base_call_id, c.base_keep, c.message_count AS lim, 0 AS depth
       FROM model_calls c JOIN prev ON c.id = prev.id
       UNION ALL
       SELECT b.id, b.base_call_id, b.base_keep, LEAST(ch.lim, ch.base_keep), ch.depth + 1
       FROM chain ch JOIN model_calls b ON b.id = ch.base_call_id
       WHERE ch.base_keep > 0 AND ch.depth < 100000
     ), list AS (
       SELECT m.position, m.hash FROM chain c JOIN model_call_messages m
         ON m.call_id = c.id AND m.position >= c.base_keep AND m.position < c.lim
     )
     SELECT p.id, p.chain_depth, p.message_count, l.position, l.hash
     FROM prev p LEFT JOIN list l ON true ORDER BY l.position`,
    sessionId,
  );
  const first = rows[0];
  if (!first) return null;
  const hashes = rows.filter((r) => r.hash !== null).map((r) => r.hash as string);
  if (hashes.length !== first.message_count || rows.some((r, i) => r.position !== null && r.position !== i)) {
    throw new Error(`Model call ${first.id}: stored message list is incomplete (${hashes.length} of ${first.message_count} messages)`);
  }
  return { id: first.id, chainDepth: first.chain_depth, hashes };
}

export interface CallRowValues {
  id: string;
  sessionId: string;
  kind: string;
  model: string;
  modelInfo: string;
  entryId: string | null;
  systemHash: string | null;
  toolsHash: string | null;
  settings: string;
  messageCount: number;
  responseHash: string | null;
  responseText: string | null;
  usage: string | null;
  stopReason: string;
  errorMessage: string | null;
  startedAt: Date;
  durationMs: number;
  promptTokens: number | null;
}

const WRITE_SQL = `
WITH contents AS (
  INSERT INTO model_call_contents (hash, kind, data, bytes)
  SELECT x.hash, x.kind, x.data, x.bytes
  FROM jsonb_to_recordset($1::jsonb) AS x(hash text, kind text, data jsonb, bytes int)
  ON CONFLICT (hash) DO NOTHING
  RETURNING 1
), next AS (
  SELECT COALESCE(max(seq) + 1, 0) AS seq FROM model_calls WHERE session_id = $3
), call AS (
  INSERT INTO model_calls (
    id, session_id, seq, kind, model, model_info, entry_id, system_hash, tools_hash, settings,
    base_call_id, base_keep, chain_depth, message_count, response_hash, response_text, usage,
    stop_reason, error_message, started_at, duration_ms, prompt_tokens)
  SELECT $2, $3, next.seq, $4, $5, $6::jsonb, $7, $8, $9, $10::jsonb, $11, $12::int, $13::int, $14::int, $15, $16,
    $17::jsonb, $18, $19, $20::timestamptz, $21::int, $22::int
  FROM next
  RETURNING seq
), list AS (
  INSERT INTO model_call_messages (call_id, position, hash)
  SELECT $2, x.p, x.h FROM jsonb_to_recordset($23::jsonb) AS x(p int, h text)
  RETURNING 1
)
SELECT (SELECT seq FROM call) AS seq, (SELECT count(*)::int FROM contents) AS new_contents`;

/** Contents as one JSON array, the canonical texts spliced in without re-serializing them. */
function contentsJson(contents: readonly AddressedContent[]): string {
  const unique = new Map<string, AddressedContent>();
  for (const c of contents) if (!unique.has(c.hash)) unique.set(c.hash, c);
  const rows = [...unique.values()].map(
    (c) => `{"hash":${JSON.stringify(c.hash)},"kind":${JSON.stringify(c.kind)},"bytes":${c.bytes},"data":${c.json}}`,
  );
  return `[${rows.join(",")}]`;
}

/** Writes the call (one statement); resolves with its seq and how many contents were new. */
export async function writeCall(
  db: Db,
  input: { call: CallRowValues; plan: ListPlan; contents: readonly AddressedContent[] },
): Promise<{ seq: number; newContents: number }> {
  const { call, plan } = input;
  const list = plan.appended.map((hash, i) => ({ p: plan.baseKeep + i, h: hash }));
  const [row] = await db.$queryRawUnsafe<{ seq: number; new_contents: number }[]>(
    WRITE_SQL,
    contentsJson(input.contents),
    call.id,
    call.sessionId,
    call.kind,
    call.model,
    call.modelInfo,
    call.entryId,
    call.systemHash,
    call.toolsHash,
    call.settings,
    plan.baseCallId,
    plan.baseKeep,
    plan.chainDepth,
    call.messageCount,
    call.responseHash,
    call.responseText,
    call.usage,
    call.stopReason,
    call.errorMessage,
    call.startedAt,
    call.durationMs,
    call.promptTokens,
    toPgJson(list),
  );
  return { seq: row?.seq ?? 0, newContents: row?.new_contents ?? 0 };
}

/** Two recorders computed the same seq: retry. */
export function isSeqRace(error: unknown): boolean {
  return isUniqueViolation(error, "model_calls_session_id_seq_key");
}
