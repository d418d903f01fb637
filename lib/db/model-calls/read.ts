import "server-only";
/**
 * Reads of recorded model calls. Only reads: the inspector builds its views from them
 * (lib/inspector/calls.ts, lib/inspector/inspect.ts).
 *
 * Contract:
 * - `readSessionCalls`: the session from the read model AND the rows of all its calls (oldest
 *   first), the rows riding on the read model's version check (MetaExtra): ONE statement when
 *   the cache is current. The rows and the meta come from one snapshot; the entries are the read
 *   model's at that meta's rev (lib/db/read-model), so a stale cache never shows.
 *   The rows this process has read are kept per session (a sixteenth of the read model's
 *   budget, ARBOR_CACHE_MB: 16 MB by default; least recently used first out), so the statement only brings the calls after the last one kept, with the
 *   session's call count and how many of the kept ones have their entry: calls are only ever
 *   appended and attached once (attachCallEntry), so equal figures prove the kept rows current.
 *   Any other figure (an old call attached since, a call another process numbered below the
 *   last kept one, calls gone with their session) reads every row again (a second statement).
 *   A session's calls cost what changed, not one row per call it ever made.
 * - `readCallBodies`: the whole message lists (hashes, in order) of several calls and the
 *   contents of all their hashes plus `extra` ones, in ONE statement (one recursive walk of the
 *   calls' delta chains, lists.ts).
 * - `readPrunedOriginals`: the kept originals of the given pruned tool-result entries.
 * Everything is scoped by session: a call of another session is never returned.
 */
import type { AgentModelInfo } from "@/lib/agent/ports";
import type { ModelCallKind } from "@/lib/types/inspector";
import type { ImageContent, StopReason, TextContent, Usage } from "@/lib/session/types";
import { getDb } from "../client";
import { readListsWithContents } from "./lists";
import { NotFoundError } from "../errors";
import { isLiveSession } from "../store/live-session";
import { cacheBudgetBytes, readSession, type SessionView } from "../read-model";
import { ByteLru } from "@/lib/byte-lru";

/** One model_calls row as the inspector reads it. */
export interface CallRow {
  id: string;
  session_id: string;
  seq: number;
  kind: ModelCallKind;
  model: string;
  model_info: AgentModelInfo;
  entry_id: string | null;
  system_hash: string | null;
  tools_hash: string | null;
  settings: Record<string, unknown>;
  base_call_id: string | null;
  base_keep: number;
  chain_depth: number;
  message_count: number;
  stored_messages: number;
  response_hash: string | null;
  response_text: string | null;
  usage: Usage | null;
  stop_reason: StopReason;
  error_message: string | null;
  started_at: Date;
  duration_ms: number;
  prompt_tokens: number | null;
}

/**
 * ($1 = session id) The calls after seq `after` as one json array (the time travels as epoch
 * milliseconds), the session's call count, and how many calls up to `after` have their entry.
 */
function callsSql(after: number): string {
  if (!Number.isSafeInteger(after)) throw new Error(`model calls: bad seq ${after}`);
  return `SELECT json_build_object(
    'count', (SELECT count(*) FROM model_calls WHERE session_id = $1),
    'attached', (SELECT count(entry_id) FROM model_calls WHERE session_id = $1 AND seq <= ${after}),
    'rows', (SELECT coalesce(json_agg(row_to_json(x) ORDER BY x.seq), '[]'::json) FROM (
      SELECT c.id, c.session_id, c.seq, c.kind, c.model, c.model_info, c.entry_id, c.system_hash, c.tools_hash,
        c.settings, c.base_call_id, c.base_keep, c.chain_depth, c.message_count, c.response_hash, c.response_text,
        c.usage, c.stop_reason, c.error_message, c.duration_ms, c.prompt_tokens,
        c.message_count - c.base_keep AS stored_messages,
        (extract(epoch FROM c.started_at) * 1000)::float8 AS started_ms
      FROM model_calls c WHERE c.session_id = $1 AND c.seq > ${after}) x))`;
}

type JsonRow = Omit<CallRow, "started_at"> & { started_ms: number };

interface CallsRead {
  count: number;
  attached: number;
  rows: CallRow[];
}

function toRead(value: unknown): CallsRead {
  const read = value as { count?: unknown; attached?: unknown; rows?: unknown } | null;
  if (!read || !Array.isArray(read.rows)) throw new Error("model calls: the call list did not read as a json array");
  // The parsed objects become the rows (one added field; a copy per row cost more than the read).
  const rows = read.rows as (JsonRow & { started_at?: Date })[];
  for (const row of rows) row.started_at = new Date(row.started_ms);
  return { count: Number(read.count), attached: Number(read.attached), rows: rows as unknown as CallRow[] };
}

interface KeptCalls {
  readonly rows: readonly CallRow[];
  /** How many of `rows` have their entry. */
  readonly attached: number;
  readonly bytes: number;
}

/** Rows kept per session: a sixteenth of the read model's budget (none when caching is off). */
const kept = new ByteLru<KeptCalls>(cacheBudgetBytes() / 16);

/** A row's share of the cache: its texts (two bytes a character) and the rest of it. */
const rowBytes = (row: CallRow) => 2 * ((row.response_text?.length ?? 0) + (row.error_message?.length ?? 0)) + 1024;

function keep(sessionId: string, rows: readonly CallRow[], before?: KeptCalls): void {
  let attached = before?.attached ?? 0;
  let bytes = before?.bytes ?? 0;
  for (let i = before?.rows.length ?? 0; i < rows.length; i++) {
    if (rows[i]!.entry_id !== null) attached++;
    bytes += rowBytes(rows[i]!);
  }
  kept.set(sessionId, { rows, attached, bytes });
}

/** Forgets every session's kept rows (tests: as a restart would). */
export function clearCallRowsCache(): void {
  kept.clear();
}

export interface SessionCalls {
  view: SessionView;
  /** Every call of the session, by seq. Shared with the cache: read only. */
  calls: readonly CallRow[];
}

async function viewWithCalls(sessionId: string, after: number): Promise<SessionView | null> {
  const view = await readSession({ sessionId, extra: { sql: callsSql(after) } }).catch((error: unknown) => {
    if (error instanceof NotFoundError) return null;
    throw error;
  });
  return view && isLiveSession(view.meta) ? view : null;
}

/** The session (read model) and its calls; null for an unknown or deleted session. */
export async function readSessionCalls(sessionId: string): Promise<SessionCalls | null> {
  const before = kept.get(sessionId);
  const last = before?.rows.at(-1)?.seq ?? -1;
  const view = await viewWithCalls(sessionId, last);
  if (!view) return null;
  const read = toRead(view.extra);
  if (before && read.count === before.rows.length + read.rows.length && read.attached === before.attached) {
    const rows = read.rows.length === 0 ? before.rows : before.rows.concat(read.rows);
    if (rows !== before.rows) keep(sessionId, rows, before);
    return { view, calls: rows };
  }
  if (!before || last < 0) {
    keep(sessionId, read.rows);
    return { view, calls: read.rows };
  }
  // The kept rows are not current: read them all.
  const again = await viewWithCalls(sessionId, -1);
  if (!again) return null;
  const rows = toRead(again.extra).rows;
  keep(sessionId, rows);
  return { view: again, calls: rows };
}

export interface CallBodies {
  /** call id → its message hashes, in order. */
  lists: Map<string, string[]>;
  /** hash → content, for every listed hash and every `extra` hash that exists. */
  contents: Map<string, unknown>;
  /** hash → length of the content's JSON text (a size estimate for caches). */
  sizes?: Map<string, number>;
}

/** The lists of `calls` and the contents they (and `extra`) name, in one statement (lists.ts). */
export function readCallBodies(input: {
  calls: readonly Pick<CallRow, "id" | "message_count">[];
  extra?: readonly (string | null)[];
}): Promise<CallBodies> {
  const calls = [...new Map(input.calls.map((c) => [c.id, { id: c.id, messageCount: c.message_count }])).values()];
  const extra = [...new Set((input.extra ?? []).filter((h): h is string => h !== null))];
  return readListsWithContents(getDb(), calls, extra);
}

/** Kept originals of the given pruned entries (entry id → original content); no query for none. */
export async function readPrunedOriginals(sessionId: string, entryIds: readonly string[]): Promise<Map<string, (TextContent | ImageContent)[]>> {
  if (entryIds.length === 0) return new Map();
  const rows = await getDb().$queryRaw<{ id: string; pruned_original: (TextContent | ImageContent)[] }[]>`
    SELECT id, pruned_original FROM entries
    WHERE session_id = ${sessionId} AND id = ANY(${[...entryIds]}::text[]) AND pruned_original IS NOT NULL`;
  return new Map(rows.map((r) => [r.id, r.pruned_original]));
}
