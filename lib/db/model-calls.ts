import "server-only";
/**
 * Recording model calls for the context inspector, and the agent's ModelCallRecorder on top.
 *
 * Contract:
 * - `recordModelCall` stores one call exactly as sent (system prompt, messages after
 *   convertToLlm, tool definitions, settings, model) with its response (assistant message or
 *   summary text, usage, stop reason, error) and timing, in ONE transaction. Contents are
 *   content-addressed (model-call-contents.ts) and the message list is a delta on the session's
 *   previous chat call (model-call-lists.ts). `seq` numbers the session's calls 0, 1, … under a
 *   per-session advisory lock, so concurrent recorders (a split-turn compaction runs two
 *   summaries at once) never collide. An unknown session throws NotFoundError.
 * - The port's ModelCallRecord carries no entry ids, and the call is recorded before the agent
 *   appends the entry it produced. So `entryId` is optional here; `attachCallEntry` sets it
 *   later, and reads (model-call-read.ts) match unattached calls to their entries.
 * - `createDbRecorder` records one call at a time, in the order the agent reported them.
 */
import { randomUUID } from "node:crypto";
import type { ModelCallRecord, ModelCallRecorder } from "@/lib/agent/ports";
import { addressContent } from "@/lib/inspector/canonical";
import { calculatePromptTokens } from "@/lib/compaction/tokens";
import type { Usage } from "@/lib/session/types";
import { getDb } from "./client";
import { NotFoundError } from "./errors";
import { type AddressedContent, storeContents } from "./model-call-contents";
import { planMessageList, readHashList, writeListRows } from "./model-call-lists";
import { toPgJson, toPgText } from "./pg-json";
import { withTransaction } from "./store-sql";

export { getModelCall, listModelCalls } from "./model-call-read";

export interface RecordModelCallInput {
  sessionId: string;
  /** The entry the call produced, when the caller already knows it. */
  entryId?: string;
  call: ModelCallRecord;
}

export interface RecordedCall {
  callId: string;
  seq: number;
  /** Rows the call added to model_call_messages (its delta). */
  storedMessages: number;
  /** Contents that were new to the store. */
  newContents: number;
}

function address(value: unknown, kind: AddressedContent["kind"]): AddressedContent {
  return { ...addressContent(value), kind };
}

/** Request settings: everything but the content (maxOutputTokens, reasoning, future fields). */
function settingsOf(request: ModelCallRecord["request"]): Record<string, unknown> {
  const { system: _system, messages: _messages, tools: _tools, ...settings } = request;
  return JSON.parse(JSON.stringify(settings)) as Record<string, unknown>;
}

function promptTokensOf(usage: Usage | undefined): number | null {
  if (!usage) return null;
  const tokens = calculatePromptTokens(usage);
  return Number.isFinite(tokens) && tokens > 0 ? Math.round(tokens) : null;
}

export async function recordModelCall(input: RecordModelCallInput): Promise<RecordedCall> {
  const { sessionId, call } = input;
  // Hashing happens before the transaction: it is the only cost that grows with the list.
  const messages = call.request.messages.map((m) => address(m, "message"));
  const system = call.request.system !== undefined ? address(call.request.system, "system") : null;
  const tools = call.request.tools?.length ? address(call.request.tools, "tools") : null;
  const response = call.response.message ? address(call.response.message, "message") : null;
  const usage = call.response.usage ?? call.response.message?.usage;
  const hashes = messages.map((m) => m.hash);
  const callId = randomUUID();

  return withTransaction(async (tx) => {
    const locked = await tx.$queryRaw<{ ok: number }[]>`
      SELECT 1 AS ok FROM sessions s, LATERAL (SELECT pg_advisory_xact_lock(hashtextextended(${`arbor.model_calls:${sessionId}`}, 0))) l
      WHERE s.id = ${sessionId}`;
    if (locked.length === 0) throw new NotFoundError({ sessionId });

    const [last] = await tx.$queryRaw<{ seq: number }[]>`
      SELECT seq FROM model_calls WHERE session_id = ${sessionId} ORDER BY seq DESC LIMIT 1`;
    const seq = last ? last.seq + 1 : 0;
    let base = null;
    if (call.kind === "chat") {
      const [prev] = await tx.$queryRaw<{ id: string; chain_depth: number; message_count: number }[]>`
        SELECT id, chain_depth, message_count FROM model_calls
        WHERE session_id = ${sessionId} AND kind = 'chat' ORDER BY seq DESC LIMIT 1`;
      if (prev) {
        const prevHashes = await readHashList(tx, { id: prev.id, messageCount: prev.message_count });
        base = { id: prev.id, chainDepth: prev.chain_depth, hashes: prevHashes };
      }
    }
    const plan = planMessageList(base, hashes);
    const contents = [...messages, ...(system ? [system] : []), ...(tools ? [tools] : []), ...(response ? [response] : [])];
    const newContents = await storeContents(tx, contents);

    await tx.$executeRaw`
      INSERT INTO model_calls (
        id, session_id, seq, kind, model, model_info, entry_id, system_hash, tools_hash, settings,
        base_call_id, base_keep, chain_depth, message_count, response_hash, response_text, usage,
        stop_reason, error_message, started_at, duration_ms, prompt_tokens)
      VALUES (
        ${callId}, ${sessionId}, ${seq}, ${call.kind}, ${call.model.ref}, ${toPgJson(call.model)}::jsonb,
        ${input.entryId ?? null}, ${system?.hash ?? null}, ${tools?.hash ?? null}, ${toPgJson(settingsOf(call.request))}::jsonb,
        ${plan.baseCallId}, ${plan.baseKeep}, ${plan.chainDepth}, ${hashes.length}, ${response?.hash ?? null},
        ${call.response.text === undefined ? null : toPgText(call.response.text)},
        ${usage ? toPgJson(usage) : null}::jsonb, ${call.response.stopReason},
        ${call.response.errorMessage === undefined ? null : toPgText(call.response.errorMessage)},
        ${new Date(call.startedAt)}, ${Math.max(0, Math.round(call.durationMs))}, ${promptTokensOf(usage)})`;
    await writeListRows(tx, callId, plan);
    return { callId, seq, storedMessages: plan.appended.length, newContents };
  });
}

/** Records which entry a call produced. Throws NotFoundError for a call of another session. */
export async function attachCallEntry(input: { sessionId: string; callId: string; entryId: string }): Promise<void> {
  const n = await getDb().$executeRaw`
    UPDATE model_calls SET entry_id = ${input.entryId} WHERE id = ${input.callId} AND session_id = ${input.sessionId}`;
  if (n === 0) throw new NotFoundError({ sessionId: input.sessionId, message: `Model call ${input.callId} not found` });
}

export interface DbRecorderOptions {
  sessionId: string;
  /** Told about every stored call (e.g. to attach its entry once the agent has appended it). */
  onRecorded?(recorded: RecordedCall, call: ModelCallRecord): void;
}

/**
 * The ModelCallRecorder the chat glue hands to the agent. Calls are written one at a time, in
 * report order; a failed write rejects that record() (the agent logs it) and the next still runs.
 */
export function createDbRecorder(opts: DbRecorderOptions): ModelCallRecorder & { flush(): Promise<void> } {
  let queue: Promise<unknown> = Promise.resolve();
  return {
    record(call) {
      const run = queue.then(async () => {
        const recorded = await recordModelCall({ sessionId: opts.sessionId, call });
        opts.onRecorded?.(recorded, call);
      });
      queue = run.catch(() => undefined);
      return run;
    },
    /** Resolves once every reported call has been written (or has failed). */
    flush: () => queue.then(() => undefined),
  };
}
