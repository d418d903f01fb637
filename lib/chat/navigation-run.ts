import "server-only";
/**
 * Navigation over HTTP: `agent.navigate(targetId, { summarize, customInstructions })` (spec
 * §11.4), streamed as a UI message stream.
 *
 * Stream parts, in order:
 * - `data-branchSummary { phase: "start" }`, `{ phase: "delta", delta }`* and `{ phase: "end",
 *   entryId? | aborted? | errorMessage? }` — only when a summary was asked for and branch
 *   summaries are on (`branchSummary.enabled`, session-engine.md §15);
 * - `data-entry` for the stored branch summary (the only entry a navigation writes);
 * - `data-navigated { leafId, previousLeafId, editorText?, cancelled, aborted?, summaryEntryId? }`
 *   — `previousLeafId` is what "Undo" moves the leaf back to (undoNavigation action);
 * - `data-error` for a failure: "Already at this point" when the target is the current leaf
 *   (nothing changes), `Entry … not found` (code "not_found"), a failed summary as "Branch
 *   summary failed: <No API key for … | the model error>. Nothing was saved …" (also in the
 *   `data-branchSummary` end's errorMessage), or the store's conflict.
 * Stop, aborting the request or cancelling the response body cancels the summary; then nothing
 * is written and the leaf stays where it was (`cancelled: true, aborted: true`).
 */
import { linkedController } from "@/lib/agent/abort";
import { isConflictError } from "@/lib/agent/ports";
import { failureText, startOperation } from "./operation";
import type { ArborDataParts } from "@/lib/chat-protocol/ui-types";

export const ALREADY_HERE = "Already at this point";

/** What the user reads when the branch summary failed: nothing was written, the leaf stayed. */
export function branchSummaryFailed(err: unknown): string {
  const reason = failureText(err).replace(/[.\s]+$/, "");
  return `Branch summary failed: ${reason}. Nothing was saved and you are still at the same point; try again, or move without a summary.`;
}

export interface NavigationInput {
  sessionId: string;
  targetId: string;
  summarize: boolean;
  customInstructions?: string;
  signal?: AbortSignal;
}

export function startNavigation(input: NavigationInput): Promise<Response> {
  const request = linkedController(input.signal);
  return startOperation({
    sessionId: input.sessionId,
    kind: "navigation",
    onCancel: () => request.controller.abort(),
    work: async ({ opened, sink, run }) => {
      const { agent, config } = opened;
      const previousLeafId = agent.tree.getLeafId();
      if (input.targetId === previousLeafId) return sink.error(ALREADY_HERE);
      if (!agent.tree.getEntry(input.targetId)) return sink.error(`Entry ${input.targetId} not found`, "not_found");

      const summarizing = input.summarize && config.settings.branchSummary.enabled;
      const { controller, unlink } = linkedController(request.controller.signal, run.signal);
      if (summarizing) sink.data("branchSummary", { phase: "start" });
      try {
        const result = await agent.navigate(input.targetId, {
          summarize: input.summarize,
          ...(input.customInstructions ? { customInstructions: input.customInstructions } : {}),
          signal: controller.signal,
          onSummaryText: (_kind, delta) => sink.data("branchSummary", { phase: "delta", delta }),
        });
        if (summarizing) {
          sink.data("branchSummary", {
            phase: "end",
            ...(result.summaryEntry ? { entryId: result.summaryEntry.id } : {}),
            ...(result.aborted ? { aborted: true } : {}),
          });
        }
        const navigated: ArborDataParts["navigated"] = {
          leafId: agent.tree.getLeafId(),
          previousLeafId,
          cancelled: result.cancelled,
        };
        if (result.editorText !== undefined) navigated.editorText = result.editorText;
        if (result.aborted) navigated.aborted = true;
        if (result.summaryEntry) navigated.summaryEntryId = result.summaryEntry.id;
        sink.data("navigated", navigated);
      } catch (err) {
        // A store conflict keeps its own message (and code); anything else failed the summary.
        if (!summarizing || isConflictError(err)) throw err;
        const message = branchSummaryFailed(err);
        sink.data("branchSummary", { phase: "end", errorMessage: message });
        sink.error(message, "failed");
      } finally {
        unlink();
        request.unlink();
      }
    },
  });
}
