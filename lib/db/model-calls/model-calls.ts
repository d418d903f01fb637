import "server-only";
/**
 * Recording model calls for the context inspector, and the agent's ModelCallRecorder on top.
 *
 * Contract:
 * - `recordModelCall` stores one call exactly as sent (system prompt, messages after
 *   convertToLlm, tool definitions, settings, model) with its response (assistant message or
 *   summary text, usage, stop reason, error) and timing, in ONE statement (write.ts;
 *   plus one read of the previous chat call's list when this process has not recorded one for
 *   the session). Contents are content-addressed (contents.ts) and hashed once per
 *   message object; the message list is a delta on an earlier chat call (lists.ts).
 *   `seq` numbers the session's calls 0, 1, …; concurrent recorders (a split-turn compaction
 *   runs two summaries at once) that draw the same seq retry. An unknown session throws
 *   NotFoundError.
 * - The port's ModelCallRecord carries no entry ids, and the call is recorded before the agent
 *   appends the entry it produced. So `entryId` is optional here; `attachCallEntry` sets it
 *   later, and the inspector (lib/inspector/calls.ts) matches unattached calls to their entries.
 * - `createDbRecorder` records one call at a time, in the order the agent reported them.
 */
import { randomUUID } from "node:crypto";
import type { ModelCallRecord, ModelCallRecorder } from "@/lib/agent/ports";
import { addressContent, contentHashOf } from "@/lib/content-address";
import { calculatePromptTokens } from "@/lib/compaction/tokens";
import type { Usage } from "@/lib/session/types";
import { getDb } from "../client";
import { NotFoundError, pgErrorOf } from "../errors";
import type { AddressedContent } from "./contents";
import { planMessageList } from "./lists";
import { type CallRowValues, forgetBase, isSeqRace, readChatBase, rememberBase, rememberedBase, writeCall } from "./write";
import { toPgJson, toPgText } from "../pg-json";


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

function isForeignKeyViolation(error: unknown, constraint: string): boolean {
  const pg = pgErrorOf(error);
  return pg.code === "23503" && pg.constraint === constraint;
}

const MAX_ATTEMPTS = 5;

export async function recordModelCall(input: RecordModelCallInput): Promise<RecordedCall> {
  const { sessionId, call } = input;
  // Hashing is the only cost that grows with the list: once per message object (the messages of
  // cached entries are the same objects call after call); canonical texts only for what is sent.
  const sent = call.request.messages;
  const hashes = sent.map((m) => contentHashOf(m));
  const system = call.request.system !== undefined ? address(call.request.system, "system") : null;
  const tools = call.request.tools?.length ? address(call.request.tools, "tools") : null;
  const response = call.response.message ? address(call.response.message, "message") : null;
  const usage = call.response.usage ?? call.response.message?.usage;
  const callId = randomUUID();
  const row: CallRowValues = {
    id: callId,
    sessionId,
    kind: call.kind,
    model: call.model.ref,
    modelInfo: toPgJson(call.model),
    entryId: input.entryId ?? null,
    systemHash: system?.hash ?? null,
    toolsHash: tools?.hash ?? null,
    settings: toPgJson(settingsOf(call.request)),
    messageCount: hashes.length,
    responseHash: response?.hash ?? null,
    responseText: call.response.text === undefined ? null : toPgText(call.response.text),
    usage: usage ? toPgJson(usage) : null,
    stopReason: call.response.stopReason,
    errorMessage: call.response.errorMessage === undefined ? null : toPgText(call.response.errorMessage),
    startedAt: new Date(call.startedAt),
    durationMs: Math.max(0, Math.round(call.durationMs)),
    promptTokens: promptTokensOf(usage),
  };
  const db = getDb();
  for (let attempt = 1; ; attempt++) {
    const base = call.kind !== "chat" ? null : (rememberedBase(sessionId) ?? (await readChatBase(db, sessionId)));
    const plan = planMessageList(base, hashes);
    // Contents the base's kept prefix covers are stored already (its list references them).
    const contents = [
      ...sent.slice(plan.baseKeep).map((m) => address(m, "message")),
      ...(system ? [system] : []),
      ...(tools ? [tools] : []),
      ...(response ? [response] : []),
    ];
    try {
      const { seq, newContents } = await writeCall(db, { call: row, plan, contents });
      if (call.kind === "chat") rememberBase(sessionId, { id: callId, chainDepth: plan.chainDepth, hashes });
      return { callId, seq, storedMessages: plan.appended.length, newContents };
    } catch (error) {
      if (isForeignKeyViolation(error, "model_calls_session_id_fkey")) throw new NotFoundError({ sessionId });
      const retry = isSeqRace(error) || isForeignKeyViolation(error, "model_calls_base_call_id_fkey");
      if (!retry || attempt >= MAX_ATTEMPTS) throw error;
      forgetBase(sessionId);
    }
  }
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
