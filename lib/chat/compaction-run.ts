import "server-only";
/**
 * Manual compaction — the "Compact" action (session-engine.md §13.4) — and its preview, over HTTP.
 *
 * - `previewCompaction` opens the session read-only (no run slot) and returns what a compaction
 *   would do now, without calling a model (see CompactionPreviewBody).
 * - `startManualCompaction` stops a running turn first and waits for it (§13.4 step 1), then
 *   runs `agent.compact(focus)` and streams it: `data-compaction` start / summary deltas / end,
 *   `data-entry` for the saved compaction, `data-usage`, and on failure a `data-error` with the
 *   §13.4 message ("No model selected", "No API key for …", "Already compacted", "Nothing to
 *   compact (session too small)", "Compaction cancelled"). Stop, aborting the request or
 *   cancelling the response body cancels it, and then nothing is written.
 * - The API key is checked on the compaction model (which may differ from the chat model), so
 *   the message names the provider that is actually missing its key.
 */
import { linkedController } from "@/lib/agent/abort";
import type { CompactionPreview } from "@/lib/agent/session-agent";
import { NotFoundError } from "@/lib/db";
import type { SessionTree } from "@/lib/session/tree/tree";
import { rowText } from "@/lib/session/tree/tree-row-text";
import { sessionNotFound } from "@/lib/http/route-helpers";
import { startOperation } from "./operation";
import { openSessionAgent } from "./runtime";

export type CompactionPreviewBody =
  | { canCompact: false; reason: string; model: PreviewModel }
  | {
      canCompact: true;
      firstKeptEntryId: string;
      /** Row text of the first kept entry (session-engine.md §16.2), where the model's memory will start. */
      firstKeptText?: string;
      isSplitTurn: boolean;
      counts: { summarized: number; turnPrefix: number; kept: number };
      tokensBefore: number;
      /** chars/4 estimates (session-engine.md §4) of the summarized part and of the part kept verbatim. */
      summarizedTokens: number;
      keptTokens: number;
      hasPreviousSummary: boolean;
      readFiles: string[];
      modifiedFiles: string[];
      focus?: string;
      model: PreviewModel;
    };

/** The model that would write the summary. */
export interface PreviewModel {
  ref: string;
  label?: string;
  hasApiKey: boolean;
  offline: boolean;
}

function toBody(p: CompactionPreview, model: PreviewModel, tree: SessionTree): CompactionPreviewBody {
  if (!p.canCompact) return { canCompact: false, reason: p.reason, model };
  const firstKept = tree.getEntry(p.firstKeptEntryId);
  const body: CompactionPreviewBody = {
    canCompact: true,
    firstKeptEntryId: p.firstKeptEntryId,
    // A cut is never a tool result (session-engine.md §5.1), so no tool-call index is needed for its row text.
    ...(firstKept ? { firstKeptText: rowText(firstKept, { toolCallsById: new Map() }) } : {}),
    isSplitTurn: p.isSplitTurn,
    counts: { summarized: p.messagesToSummarize, turnPrefix: p.turnPrefixMessages, kept: p.keptMessages },
    tokensBefore: p.tokensBefore,
    summarizedTokens: p.summarizedTokensEstimate,
    keptTokens: p.keptTokensEstimate,
    hasPreviousSummary: p.hasPreviousSummary,
    readFiles: p.readFiles,
    modifiedFiles: p.modifiedFiles,
    model,
  };
  if (p.customInstructions) body.focus = p.customInstructions;
  return body;
}

export async function previewCompaction(input: { sessionId: string; focus?: string }): Promise<Response> {
  let opened: Awaited<ReturnType<typeof openSessionAgent>>;
  try {
    opened = await openSessionAgent({ sessionId: input.sessionId });
  } catch (err) {
    if (err instanceof NotFoundError) return sessionNotFound(input.sessionId);
    throw err;
  }
  try {
    const { info, hasApiKey } = opened.compactionModel;
    const model: PreviewModel = { ref: info.ref, hasApiKey, offline: info.offline === true };
    if (info.label) model.label = info.label;
    const preview = opened.agent.previewCompaction(input.focus);
    return Response.json(toBody(preview, model, opened.agent.tree), { headers: { "cache-control": "no-store" } });
  } finally {
    await opened.close();
  }
}

export function startManualCompaction(input: { sessionId: string; focus?: string; signal?: AbortSignal }): Promise<Response> {
  // Cancelled by the request's abort or a cancelled response body; Stop aborts the run signal.
  const request = linkedController(input.signal);
  return startOperation({
    sessionId: input.sessionId,
    kind: "compaction",
    preempt: ["turn"],
    onCancel: () => request.controller.abort(),
    work: async ({ opened, run }) => {
      const { controller, unlink } = linkedController(request.controller.signal, run.signal);
      try {
        const model = opened.compactionModel;
        if (!model.hasApiKey) throw new Error(`No API key for ${model.info.provider}`);
        await opened.agent.compact(input.focus, { signal: controller.signal });
      } finally {
        unlink();
        request.unlink();
      }
    },
  });
}
