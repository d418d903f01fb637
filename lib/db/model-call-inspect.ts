import "server-only";
/**
 * The context inspector's reads: a TurnView (lib/inspector/types.ts) for a recorded call, for an
 * assistant entry (its recorded call if there is one, else a reconstruction), or for the next turn.
 *
 * Contract:
 * - A recorded chat call is diffed against the session's previous chat call; a summarization
 *   call has no diff. A reconstructed turn is diffed against the previous assistant turn on its
 *   path (that turn's recorded call when it has one, else its reconstruction). The preview is
 *   diffed against the turn it follows.
 * - The preview takes the system prompt and tools of the latest recorded chat call (a session
 *   without one previews the messages only, and says so).
 * - Returns null for an unknown session / call / entry, and "not_assistant" when the entry
 *   exists but is not an assistant message (nothing was sent for it).
 */
import type { CompactionSettings } from "@/lib/compaction/summarize-types";
import { previewNextTurn } from "@/lib/inspector/preview";
import { reconstructionGaps } from "@/lib/formats/gaps";
import { RECONSTRUCTED_NOTE, previousAssistantId, type ReconstructedTurn, reconstructTurn } from "@/lib/inspector/reconstruct";
import { buildTurnView, type PreviousTurn, type TurnViewInput, toMessageRefs } from "@/lib/inspector/turn-view";
import type { EntryMatchIndex } from "@/lib/inspector/sources";
import type { ModelCallDetail, PendingEffects, TurnView } from "@/lib/inspector/types";
import type { PromptSet, SessionEntry, SessionHeader } from "@/lib/session/types";
import { entryMatchIndexFor, findCallForEntry, getModelCall, latestChatSetup } from "./model-call-read";
import { readLiveSession } from "./live-session";

const KIND_LABELS: Record<string, string> = {
  history: "history summary",
  turnPrefix: "turn-prefix summary",
  short: "short summary",
  branch: "branch summary",
};

function recordedInput(detail: ModelCallDetail): TurnViewInput {
  const notes: string[] = [];
  if (detail.kind !== "chat") notes.push(`Summarization call (${KIND_LABELS[detail.kind] ?? detail.kind})`);
  const unmatched = detail.request.messages.filter((m) => m.sourceEntryId === null).length;
  if (detail.kind === "chat" && unmatched > 0) {
    notes.push(`${unmatched} ${unmatched === 1 ? "message was" : "messages were"} not found among the session's entries`);
  }
  return {
    origin: "recorded",
    sessionId: detail.sessionId,
    callId: detail.id,
    kind: detail.kind,
    entryId: detail.entryId,
    model: detail.model,
    contextWindow: detail.modelInfo.contextWindow > 0 ? detail.modelInfo.contextWindow : null,
    system: detail.request.system,
    tools: detail.request.tools,
    settings: detail.request.settings,
    messages: detail.request.messages,
    providerPromptTokens: detail.promptTokens,
    response: detail.response,
    startedAt: detail.startedAt,
    durationMs: detail.durationMs,
    pending: null,
    notes,
  };
}

function reconstructedInput(sessionId: string, turn: ReconstructedTurn, header?: SessionHeader): TurnViewInput {
  const a = turn.assistant;
  return {
    origin: "reconstructed",
    sessionId,
    callId: null,
    kind: "chat",
    entryId: turn.entryId,
    model: turn.model,
    contextWindow: null,
    system: turn.system,
    tools: null,
    settings: {},
    messages: turn.messages,
    providerPromptTokens: turn.providerPromptTokens,
    response: {
      message: a,
      ...(a.usage ? { usage: a.usage } : {}),
      stopReason: a.stopReason,
      ...(a.errorMessage !== undefined ? { errorMessage: a.errorMessage } : {}),
    },
    startedAt: Number.isFinite(a.timestamp) ? new Date(a.timestamp).toISOString() : null,
    durationMs: typeof a.duration === "number" ? a.duration : null,
    pending: null,
    notes: [RECONSTRUCTED_NOTE, ...reconstructionGaps(header, turn.path)],
  };
}

interface Ctx {
  sessionId: string;
  prompts: PromptSet;
  entries: readonly SessionEntry[];
  /** The session header: its `sourceFormat` says what the file does not record. */
  header?: SessionHeader;
  /** Built once per request, shared by the call and its previous call. */
  matchIndex: EntryMatchIndex;
}

/** The turn of an assistant entry as the diff's "previous" side. */
async function previousForEntry(ctx: Ctx, entryId: string | null): Promise<PreviousTurn | null> {
  if (!entryId) return null;
  const entry = ctx.entries.find((e) => e.id === entryId);
  const callId = await findCallForEntry({ sessionId: ctx.sessionId, entryId, ...(entry ? { entry } : {}) });
  const recorded = callId ? await getModelCall({ ...ctx, callId }) : null;
  if (recorded) return { origin: "recorded", callId: recorded.id, entryId, refs: toMessageRefs(recorded.request.messages) };
  const turn = reconstructTurn(ctx.entries, entryId, ctx.prompts);
  return turn ? { origin: "reconstructed", callId: null, entryId, refs: toMessageRefs(turn.messages) } : null;
}

async function recordedView(ctx: Ctx, detail: ModelCallDetail): Promise<TurnView> {
  let previous: PreviousTurn | null = null;
  if (detail.kind === "chat" && detail.previousCallId) {
    const prev = await getModelCall({ ...ctx, callId: detail.previousCallId });
    if (prev) previous = { origin: "recorded", callId: prev.id, entryId: prev.entryId, refs: toMessageRefs(prev.request.messages) };
  }
  return buildTurnView(recordedInput(detail), ctx.entries, previous);
}

/** The session from the read model (one query when cached) and its match index. */
async function contextFor(sessionId: string, prompts: PromptSet): Promise<{ ctx: Ctx; leafId: string | null } | null> {
  const view = await readLiveSession({ sessionId });
  if (!view) return null;
  const { meta } = view;
  const entries = view.tree.getEntries();
  const matchIndex = await entryMatchIndexFor({ sessionId, entries, prompts });
  return { ctx: { sessionId, prompts, entries, matchIndex, header: meta.header }, leafId: meta.leafId };
}

export async function inspectCall(input: { sessionId: string; callId: string; prompts: PromptSet }): Promise<TurnView | null> {
  const ctx = (await contextFor(input.sessionId, input.prompts))?.ctx;
  if (!ctx) return null;
  const detail = await getModelCall({ ...ctx, callId: input.callId });
  return detail ? recordedView(ctx, detail) : null;
}

export async function inspectEntry(input: {
  sessionId: string;
  entryId: string;
  prompts: PromptSet;
}): Promise<TurnView | "not_assistant" | null> {
  const ctx = (await contextFor(input.sessionId, input.prompts))?.ctx;
  if (!ctx) return null;
  const entry = ctx.entries.find((e) => e.id === input.entryId);
  if (!entry) return null;
  if (entry.type !== "message" || entry.message.role !== "assistant") return "not_assistant";
  const callId = await findCallForEntry({ sessionId: ctx.sessionId, entryId: entry.id, entry });
  const detail = callId ? await getModelCall({ ...ctx, callId }) : null;
  if (detail) return recordedView(ctx, detail);
  const turn = reconstructTurn(ctx.entries, entry.id, ctx.prompts)!;
  const previous = await previousForEntry(ctx, previousAssistantId(ctx.entries, entry.id));
  return buildTurnView(reconstructedInput(ctx.sessionId, turn, ctx.header), ctx.entries, previous);
}

function pendingNotes(pending: PendingEffects): string[] {
  const notes: string[] = [];
  if (pending.pruning) {
    const { count, tokensSaved } = pending.pruning;
    notes.push(`Pruning will first shorten ${count} old tool ${count === 1 ? "result" : "results"} (about ${tokensSaved} tokens saved)`);
  }
  if (pending.compaction) {
    const c = pending.compaction;
    notes.push(
      c.reason === "overflow"
        ? "The last answer overflowed the context: an automatic compaction will run first"
        : `An automatic compaction will run first (${c.contextTokens} tokens > threshold ${c.threshold})`,
    );
    notes.push(`${c.summarizedCount} messages before ${c.firstKeptEntryId} will be replaced by the summary`);
  }
  return notes;
}

export interface InspectNextTurnInput {
  sessionId: string;
  prompts: PromptSet;
  settings: CompactionSettings;
  /** The current model (the session's, else the default). */
  model: { ref: string; provider: string; id: string; contextWindow: number };
  now?: number;
}

export async function inspectNextTurn(input: InspectNextTurnInput): Promise<TurnView | null> {
  const found = await contextFor(input.sessionId, input.prompts);
  if (!found) return null;
  const { ctx, leafId } = found;
  const { model } = input;
  const preview = previewNextTurn(ctx.entries, leafId, input.settings, input.prompts, model.contextWindow, {
    model: { provider: model.provider, id: model.id },
    ...(input.now !== undefined ? { now: input.now } : {}),
  });
  const setup = await latestChatSetup({ sessionId: input.sessionId });
  const notes = ["Preview: what the model will be sent if you send a message now", ...pendingNotes(preview.pending)];
  if (!setup) notes.push("No recorded call yet: the system prompt and tool definitions are not shown");
  const previous = await previousForEntry(ctx, preview.lastAssistantEntryId);
  const entries = preview.pendingCompaction ? [...ctx.entries, preview.pendingCompaction] : ctx.entries;
  return buildTurnView(
    {
      origin: "preview",
      sessionId: input.sessionId,
      callId: null,
      kind: "chat",
      entryId: null,
      model: model.ref,
      contextWindow: model.contextWindow > 0 ? model.contextWindow : null,
      system: setup?.system ?? null,
      tools: setup?.tools ?? null,
      settings: setup?.settings ?? {},
      messages: preview.messages,
      providerPromptTokens: null,
      response: null,
      startedAt: null,
      durationMs: null,
      pending: preview.pending,
      notes,
    },
    entries,
    previous,
  );
}
