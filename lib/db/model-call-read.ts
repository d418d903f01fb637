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
 * - `readCallBodies`: the whole message lists (hashes, in order) of several calls and the
 *   contents of all their hashes plus `extra` ones, in ONE statement (one recursive walk of the
 *   calls' delta chains, model-call-lists.ts).
 * - `readPrunedOriginals`: the kept originals of the given pruned tool-result entries.
 * Everything is scoped by session: a call of another session is never returned.
 */
import type { AgentModelInfo } from "@/lib/agent/ports";
import type { ModelCallKind } from "@/lib/inspector/types";
import type { ImageContent, StopReason, TextContent, Usage } from "@/lib/session/types";
import { getDb } from "./client";
import { readListsWithContents } from "./model-call-lists";
import { NotFoundError } from "./errors";
import { isLiveSession } from "./live-session";
import { readSession, type SessionView } from "./read-model";

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

/** The rows as one json array ($1 = session id); the time travels as epoch milliseconds. */
const CALLS_JSON = `SELECT coalesce(json_agg(row_to_json(x) ORDER BY x.seq), '[]'::json) FROM (
  SELECT c.id, c.session_id, c.seq, c.kind, c.model, c.model_info, c.entry_id, c.system_hash, c.tools_hash,
    c.settings, c.base_call_id, c.base_keep, c.chain_depth, c.message_count, c.response_hash, c.response_text,
    c.usage, c.stop_reason, c.error_message, c.duration_ms, c.prompt_tokens,
    c.message_count - c.base_keep AS stored_messages,
    (extract(epoch FROM c.started_at) * 1000)::float8 AS started_ms
  FROM model_calls c WHERE c.session_id = $1) x`;

type JsonRow = Omit<CallRow, "started_at"> & { started_ms: number };

function toRows(value: unknown): CallRow[] {
  if (!Array.isArray(value)) throw new Error("model calls: the call list did not read as a json array");
  return (value as JsonRow[]).map(({ started_ms, ...row }) => ({ ...row, started_at: new Date(started_ms) }));
}

export interface SessionCalls {
  view: SessionView;
  /** Every call of the session, by seq. */
  calls: CallRow[];
}

/** The session (read model) and its calls; null for an unknown or deleted session. */
export async function readSessionCalls(sessionId: string): Promise<SessionCalls | null> {
  const view = await readSession({ sessionId, extra: { sql: CALLS_JSON } }).catch((error: unknown) => {
    if (error instanceof NotFoundError) return null;
    throw error;
  });
  if (!view || !isLiveSession(view.meta)) return null;
  return { view, calls: toRows(view.extra) };
}

export interface CallBodies {
  /** call id → its message hashes, in order. */
  lists: Map<string, string[]>;
  /** hash → content, for every listed hash and every `extra` hash that exists. */
  contents: Map<string, unknown>;
  /** hash → length of the content's JSON text (a size estimate for caches). */
  sizes?: Map<string, number>;
}

/** The lists of `calls` and the contents they (and `extra`) name, in one statement (model-call-lists.ts). */
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
