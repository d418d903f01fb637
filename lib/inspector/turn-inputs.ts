/**
 * The TurnViewInput (turn-view.ts) of a recorded call and of a reconstructed turn, with the
 * notes the Context tab shows for them. Pure: no network, disk or database access.
 */
import { reconstructionGaps } from "@/lib/formats/gaps";
import { RECONSTRUCTED_NOTE, type ReconstructedTurn } from "@/lib/inspector/reconstruct";
import type { TurnViewInput } from "@/lib/inspector/turn-view";
import type { ModelCallDetail, PendingEffects } from "@/lib/types/inspector";
import type { SessionHeader } from "@/lib/session/types";

const KIND_LABELS: Record<string, string> = {
  history: "history summary",
  turnPrefix: "turn-prefix summary",
  short: "short summary",
  branch: "branch summary",
};

export function recordedInput(detail: ModelCallDetail): TurnViewInput {
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

export function reconstructedInput(sessionId: string, turn: ReconstructedTurn, header?: SessionHeader): TurnViewInput {
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

/** The preview's notes about what will happen before the message is sent. */
export function pendingNotes(pending: PendingEffects): string[] {
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
