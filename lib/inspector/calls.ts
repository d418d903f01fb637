import "server-only";
/**
 * Recorded model calls as the inspector and the Calls routes show them: the Calls list and one
 * call in full, assembled from lib/db's reads (lib/db/model-calls/read.ts) and the session index.
 *
 * Contract:
 * - Everything is scoped by session: a call id of another session is "not found" (null); an
 *   unknown or deleted session is null too.
 * - Entry ids are computed where the recorder could not know them (the port's ModelCallRecord
 *   has none): a chat call's produced entry is the assistant entry whose message hashes like the
 *   response; a summarization call's is the first compaction (history, turnPrefix, short) or
 *   branch_summary (branch) written after the call started whose summary contains the response
 *   text. Each message sent is mapped to its source entry by matchKey of the entry's converted
 *   message (sources.ts), pruned originals included.
 * - `previousCallId` is the session's previous chat call (by seq), for the diff.
 * - Statements: the list is ONE (the rows ride on the read model's version check); one call in
 *   full is TWO (that, then its list and contents), ONE when the bodies cache holds them.
 */
import type { AgentToolDefinition } from "@/lib/agent/ports";
import { type CallBodies, type CallRow, readSessionCalls, type SessionCalls } from "@/lib/db";
import { matchRecordedSources } from "@/lib/inspector/sources";
import type { ModelCallDetail, ModelCallSummary, SourcedMessage } from "@/lib/types/inspector";
import { loadPrompts } from "@/lib/llm/prompts";
import type { AssistantMessage, LlmMessage, PromptSet, SessionEntry } from "@/lib/session/types";
import { callBodies } from "./bodies";
import { contentHashOf } from "@/lib/content-address";
import { type InspectorIndex, inspectorIndex, sentMatchKey } from "./session-index";

/** A session's calls with the index they are resolved against. */
export interface CallsContext {
  sessionId: string;
  prompts: PromptSet;
  calls: readonly CallRow[];
  index: InspectorIndex;
  read: SessionCalls;
}

/**
 * The session, its calls and its index: one statement when the read model is current.
 * `matches: false` when no sent message will be matched to entries (the Calls list).
 */
export async function callsContext(sessionId: string, prompts: PromptSet, opts: { matches?: boolean } = {}): Promise<CallsContext | null> {
  const read = await readSessionCalls(sessionId);
  return read ? contextOf(read, prompts, opts) : null;
}

/** callsContext over a read the caller already made (the session page). */
export async function contextOf(read: SessionCalls, prompts: PromptSet, opts: { matches?: boolean } = {}): Promise<CallsContext> {
  const sessionId = read.view.meta.id;
  const index = await inspectorIndex(sessionId, read.view.tree, prompts, opts);
  return { sessionId, prompts, calls: read.calls, index, read };
}

/** The entry a call produced (see the header). */
export function producedEntryId(row: CallRow, index: InspectorIndex): string | null {
  if (row.entry_id) return row.entry_id;
  if (row.kind === "chat") return row.response_hash ? (index.byResponse.get(row.response_hash) ?? null) : null;
  const text = row.response_text?.trim();
  if (!text || row.stop_reason === "error" || row.stop_reason === "aborted") return null;
  const wanted = row.kind === "branch" ? "branch_summary" : "compaction";
  const found = index.summaryEntries.find((e) => {
    if (e.type !== wanted || Date.parse(e.timestamp) < row.started_at.getTime()) return false;
    if (row.kind === "short") return typeof e.shortSummary === "string" && e.shortSummary.trim() === text;
    return String(e.summary).includes(text);
  });
  return found?.id ?? null;
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

/** The session's calls, oldest first (none for an unknown or deleted session; routes 404 first). */
export async function listModelCalls(input: { sessionId: string; prompts?: PromptSet }): Promise<ModelCallSummary[]> {
  const ctx = await callsContext(input.sessionId, input.prompts ?? loadPrompts(), { matches: false });
  return ctx ? summariesOf(ctx) : [];
}

export function summariesOf(ctx: CallsContext): ModelCallSummary[] {
  return ctx.calls.map((row) => toSummary(row, producedEntryId(row, ctx.index)));
}

/**
 * The latest chat call that produced entry `entryId` (attached to it, or, when `entry` is
 * given, unattached and matched by its response).
 */
export function callForEntry(ctx: CallsContext, entryId: string, entry?: SessionEntry): CallRow | null {
  const responseHash = entry?.type === "message" ? contentHashOf(entry.message) : null;
  for (let i = ctx.calls.length - 1; i >= 0; i--) {
    const c = ctx.calls[i]!;
    if (c.kind !== "chat") continue;
    if (c.entry_id === entryId || (c.entry_id === null && responseHash !== null && c.response_hash === responseHash)) return c;
  }
  return null;
}

/** callForEntry's id, on its own read (scripts, tests). */
export async function findCallForEntry(input: { sessionId: string; entryId: string; entry?: SessionEntry }): Promise<string | null> {
  const ctx = await callsContext(input.sessionId, loadPrompts(), { matches: false });
  return ctx ? (callForEntry(ctx, input.entryId, input.entry)?.id ?? null) : null;
}

/** The session's chat call before `row` (by seq), for the diff. */
export function previousChatCall(ctx: CallsContext, row: CallRow): CallRow | null {
  for (let i = ctx.calls.length - 1; i >= 0; i--) {
    const c = ctx.calls[i]!;
    if (c.kind === "chat" && c.seq < row.seq) return c;
  }
  return null;
}

/** The messages of a call whose list is in `bodies`, each with its hash and source entry. */
export function sentMessages(ctx: CallsContext, row: CallRow, bodies: CallBodies): SourcedMessage[] {
  const hashes = bodies.lists.get(row.id) ?? [];
  const sent = hashes.map((h) => bodies.contents.get(h) as LlmMessage);
  const sources = matchRecordedSources(sent, ctx.index, ctx.index.matchIndex, (message, i) => sentMatchKey(message, hashes[i]!));
  return sent.map((message, i) => ({ message, hash: hashes[i]!, ...sources[i]! }));
}

/** One call in full, from its row and `bodies` (its list and its system / tools / response contents). */
export function callDetail(ctx: CallsContext, row: CallRow, bodies: CallBodies): ModelCallDetail {
  const responseMessage = row.response_hash ? (bodies.contents.get(row.response_hash) as AssistantMessage | undefined) : undefined;
  return {
    ...toSummary(row, producedEntryId(row, ctx.index)),
    sessionId: row.session_id,
    modelInfo: row.model_info,
    request: {
      system: row.system_hash ? (bodies.contents.get(row.system_hash) as string) : null,
      messages: sentMessages(ctx, row, bodies),
      tools: row.tools_hash ? (bodies.contents.get(row.tools_hash) as AgentToolDefinition[]) : null,
      settings: row.settings,
    },
    response: {
      ...(responseMessage ? { message: responseMessage } : {}),
      ...(row.response_text !== null ? { text: row.response_text } : {}),
      ...(row.usage ? { usage: row.usage } : {}),
      stopReason: row.stop_reason,
      ...(row.error_message !== null ? { errorMessage: row.error_message } : {}),
    },
    previousCallId: previousChatCall(ctx, row)?.id ?? null,
    storage: {
      baseCallId: row.base_call_id,
      baseKeep: row.base_keep,
      chainDepth: row.chain_depth,
      storedMessages: row.stored_messages,
    },
  };
}

/** The contents a call's detail needs besides its list. */
export const detailHashes = (row: CallRow) => [row.system_hash, row.tools_hash, row.response_hash];

/** One call in full, or null when the session has no such call. */
export async function getModelCall(input: { sessionId: string; callId: string; prompts?: PromptSet }): Promise<ModelCallDetail | null> {
  const ctx = await callsContext(input.sessionId, input.prompts ?? loadPrompts());
  const row = ctx?.calls.find((c) => c.id === input.callId);
  if (!ctx || !row) return null;
  return callDetail(ctx, row, await callBodies([row], detailHashes(row)));
}
