import "server-only";
/**
 * Reading recorded model calls: the Calls list and one call in full.
 *
 * Contract:
 * - Everything is scoped by session: a call id of another session is "not found" (null).
 * - Entry ids are computed at read time where the recorder could not know them (the port's
 *   ModelCallRecord has none): a chat call's produced entry is the assistant entry whose message
 *   hashes like the response; a summarization call's is the first compaction (history,
 *   turnPrefix, short) or branch_summary (branch) written after the call started whose summary
 *   contains the response text. Each message sent is mapped to its source entry by matchKey of
 *   the entry's converted message (lib/inspector/sources.ts), pruned originals included.
 * - `previousCallId` is the session's previous chat call (by seq), for the diff.
 */
import type { AgentModelInfo, AgentToolDefinition } from "@/lib/agent/ports";
import { contentHashOf } from "@/lib/inspector/canonical";
import { buildEntryMatchIndex, type EntryMatchIndex, entryMatchKey, matchRecordedSources } from "@/lib/inspector/sources";
import type { ModelCallDetail, ModelCallKind, ModelCallSummary, SourcedMessage } from "@/lib/inspector/types";
import { loadPrompts } from "@/lib/llm/prompts";
import type {
  AssistantMessage,
  ImageContent,
  LlmMessage,
  PromptSet,
  SessionEntry,
  StopReason,
  TextContent,
  Usage,
} from "@/lib/session/types";
import { getDb } from "./client";
import { loadContents } from "./model-call-contents";
import { readListWithContents } from "./model-call-lists";
import { memoPerEntry, readSession } from "./read-model";

interface CallRow {
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

const COLUMNS = `c.id, c.session_id, c.seq, c.kind, c.model, c.model_info, c.entry_id, c.system_hash, c.tools_hash,
  c.settings, c.base_call_id, c.base_keep, c.chain_depth, c.message_count, c.response_hash, c.response_text, c.usage,
  c.stop_reason, c.error_message, c.started_at, c.duration_ms, c.prompt_tokens,
  c.message_count - c.base_keep AS stored_messages`;

/** Resolves produced entries for calls recorded without one (see the header). */
export function producedEntryResolver(entries: readonly SessionEntry[]): (row: CallRow) => string | null {
  const byResponse = new Map<string, string>();
  for (const e of entries) {
    if (e.type === "message" && e.message.role === "assistant") byResponse.set(contentHashOf(e.message), e.id);
  }
  const summaries = entries.filter((e) => e.type === "compaction" || e.type === "branch_summary");
  return (row) => {
    if (row.entry_id) return row.entry_id;
    if (row.kind === "chat") return row.response_hash ? (byResponse.get(row.response_hash) ?? null) : null;
    const text = row.response_text?.trim();
    if (!text || row.stop_reason === "error" || row.stop_reason === "aborted") return null;
    const wanted = row.kind === "branch" ? "branch_summary" : "compaction";
    const found = summaries.find((e) => {
      if (e.type !== wanted || Date.parse(e.timestamp) < row.started_at.getTime()) return false;
      if (row.kind === "short") return typeof e.shortSummary === "string" && e.shortSummary.trim() === text;
      return String(e.summary).includes(text);
    });
    return found?.id ?? null;
  };
}

function toSummary(row: CallRow, entryId: string | null): ModelCallSummary {
  return {
    id: row.id,
    seq: row.seq,
    kind: row.kind,
    model: row.model,
    entryId,
    startedAt: row.started_at.toISOString(),
    durationMs: row.duration_ms,
    stopReason: row.stop_reason,
    errorMessage: row.error_message,
    usage: row.usage,
    promptTokens: row.prompt_tokens,
    messageCount: row.message_count,
  };
}

/** The session's calls, oldest first. */
export async function listModelCalls(input: { sessionId: string }): Promise<ModelCallSummary[]> {
  const rows = await getDb().$queryRawUnsafe<CallRow[]>(
    `SELECT ${COLUMNS} FROM model_calls c WHERE c.session_id = $1 ORDER BY c.seq`,
    input.sessionId,
  );
  if (rows.length === 0) return [];
  const resolve = producedEntryResolver((await readSession({ sessionId: input.sessionId })).tree.getEntries());
  return rows.map((row) => toSummary(row, resolve(row)));
}

/** Kept originals of the entries that are pruned now; no query when none is. */
async function prunedOriginals(sessionId: string, entries: readonly SessionEntry[]): Promise<Map<string, (TextContent | ImageContent)[]>> {
  const pruned = entries.filter((e) => e.type === "message" && e.message.role === "toolResult" && e.message.prunedAt !== undefined).map((e) => e.id);
  if (pruned.length === 0) return new Map();
  const rows = await getDb().$queryRaw<{ id: string; pruned_original: (TextContent | ImageContent)[] }[]>`
    SELECT id, pruned_original FROM entries
    WHERE session_id = ${sessionId} AND id = ANY(${pruned}::text[]) AND pruned_original IS NOT NULL`;
  return new Map(rows.map((r) => [r.id, r.pruned_original]));
}

export interface GetModelCallInput {
  sessionId: string;
  callId: string;
  /** Templates for matching summaries to entries; default: prompts/*.md. */
  prompts?: PromptSet;
  /** The session's entries, when the caller has them already. */
  entries?: readonly SessionEntry[];
  /** A match index built by `entryMatchIndexFor` over the same entries (reused across calls). */
  matchIndex?: EntryMatchIndex;
}

const matchKeyMemos = new WeakMap<PromptSet, (entry: SessionEntry) => string | undefined>();

/** matchKey of each entry's context message, once per entry object and prompt set. */
function matchKeysFor(prompts: PromptSet): (entry: SessionEntry) => string | undefined {
  let memo = matchKeyMemos.get(prompts);
  if (!memo) {
    memo = memoPerEntry((entry) => entryMatchKey(entry, prompts));
    matchKeyMemos.set(prompts, memo);
  }
  return memo;
}

/** The index mapping sent messages to entries, pruned originals included (a query only if some are pruned). */
export async function entryMatchIndexFor(input: {
  sessionId: string;
  entries: readonly SessionEntry[];
  prompts: PromptSet;
}): Promise<EntryMatchIndex> {
  return buildEntryMatchIndex(input.entries, input.prompts, await prunedOriginals(input.sessionId, input.entries), matchKeysFor(input.prompts));
}

/** One call in full, or null when the session has no such call. */
export async function getModelCall(input: GetModelCallInput): Promise<ModelCallDetail | null> {
  const db = getDb();
  const [row] = await db.$queryRawUnsafe<(CallRow & { previous_id: string | null })[]>(
    `SELECT ${COLUMNS},
       (SELECT p.id FROM model_calls p WHERE p.session_id = c.session_id AND p.kind = 'chat' AND p.seq < c.seq
        ORDER BY p.seq DESC LIMIT 1) AS previous_id
     FROM model_calls c WHERE c.id = $1 AND c.session_id = $2`,
    input.callId,
    input.sessionId,
  );
  if (!row) return null;
  const extra = [row.system_hash, row.tools_hash, row.response_hash].filter((h): h is string => h !== null);
  const { hashes, contents } = await readListWithContents(db, { id: row.id, messageCount: row.message_count }, extra);
  const previous = row.previous_id === null ? undefined : { id: row.previous_id };

  const entries = input.entries ?? (await readSession({ sessionId: input.sessionId })).tree.getEntries();
  const index =
    input.matchIndex ?? (await entryMatchIndexFor({ sessionId: input.sessionId, entries, prompts: input.prompts ?? loadPrompts() }));
  const sent = hashes.map((h) => contents.get(h) as LlmMessage);
  const sources = matchRecordedSources(sent, entries, index);
  const messages: SourcedMessage[] = sent.map((message, i) => ({ message, hash: hashes[i]!, ...sources[i]! }));

  const responseMessage = row.response_hash ? (contents.get(row.response_hash) as AssistantMessage | undefined) : undefined;
  return {
    ...toSummary(row, producedEntryResolver(entries)(row)),
    sessionId: row.session_id,
    modelInfo: row.model_info,
    request: {
      system: row.system_hash ? (contents.get(row.system_hash) as string) : null,
      messages,
      tools: row.tools_hash ? (contents.get(row.tools_hash) as AgentToolDefinition[]) : null,
      settings: row.settings,
    },
    response: {
      ...(responseMessage ? { message: responseMessage } : {}),
      ...(row.response_text !== null ? { text: row.response_text } : {}),
      ...(row.usage ? { usage: row.usage } : {}),
      stopReason: row.stop_reason,
      ...(row.error_message !== null ? { errorMessage: row.error_message } : {}),
    },
    previousCallId: previous?.id ?? null,
    storage: {
      baseCallId: row.base_call_id,
      baseKeep: row.base_keep,
      chainDepth: row.chain_depth,
      storedMessages: row.stored_messages,
    },
  };
}

/** The latest chat call that produced `entryId` (attached, or matched by its response). */
export async function findCallForEntry(input: { sessionId: string; entryId: string; entry?: SessionEntry }): Promise<string | null> {
  const responseHash = input.entry?.type === "message" ? contentHashOf(input.entry.message) : null;
  const [row] = await getDb().$queryRaw<{ id: string }[]>`
    SELECT id FROM model_calls
    WHERE session_id = ${input.sessionId} AND kind = 'chat'
      AND (entry_id = ${input.entryId} OR (entry_id IS NULL AND response_hash = ${responseHash}))
    ORDER BY seq DESC LIMIT 1`;
  return row?.id ?? null;
}

/** System prompt, tools and settings of the session's latest chat call (for the next-turn preview). */
export async function latestChatSetup(input: { sessionId: string }): Promise<{
  callId: string;
  system: string | null;
  tools: AgentToolDefinition[] | null;
  settings: Record<string, unknown>;
} | null> {
  const db = getDb();
  const [row] = await db.$queryRaw<{ id: string; system_hash: string | null; tools_hash: string | null; settings: Record<string, unknown> }[]>`
    SELECT id, system_hash, tools_hash, settings FROM model_calls
    WHERE session_id = ${input.sessionId} AND kind = 'chat' ORDER BY seq DESC LIMIT 1`;
  if (!row) return null;
  const contents = await loadContents(db, [row.system_hash, row.tools_hash].filter((h): h is string => h !== null));
  return {
    callId: row.id,
    system: row.system_hash ? (contents.get(row.system_hash) as string) : null,
    tools: row.tools_hash ? (contents.get(row.tools_hash) as AgentToolDefinition[]) : null,
    settings: row.settings,
  };
}
