import "server-only";
/**
 * "Compact again with…" (session-engine.md §19.3): another compaction of the same span as an existing one,
 * stored as its sibling (same parent), with another focus, prompt or model. An Arbor extension over the manual
 * compaction of session-engine.md §13.4, which it reuses unchanged:
 * - the agent's leaf moves to the compaction's parent, so `prepareCompaction` sees exactly the
 *   path the first compaction saw and cuts at the same `firstKeptEntryId` unless the settings
 *   changed since;
 * - `agent.compact(focus)` appends the new compaction there and commits it (one store commit,
 *   checked against the stored leaf);
 * - then the leaf goes back to where it was (a second conditional commit), so the user compares
 *   the two and picks one with "Use this one". Cancelling or a failure writes nothing.
 * - `prompt` replaces the summary prompt (session-engine.md §6.2 promptOverride; the focus is still appended),
 *   `model` ("provider/modelId") writes this one summary with another model; both, and the focus,
 *   are recorded in the new compaction's details (`arborFocus`, `arborPrompt`, `arborModel`).
 * The stream is the manual compaction's (`data-compaction`, `data-entry`, `data-error`), plus
 * `data-navigated` for the leaf restored.
 */
import { linkedController } from "@/lib/agent/abort";
import { branch, resetLeaf } from "@/lib/db";
import { jsonError } from "@/lib/http/route-helpers";
import { startOperation } from "./operation";

export interface CompactAgainInput {
  sessionId: string;
  compactionId: string;
  focus?: string;
  prompt?: string;
  model?: string;
  signal?: AbortSignal;
}

export function startCompactAgain(input: CompactAgainInput): Promise<Response> {
  const request = linkedController(input.signal);
  return startOperation({
    sessionId: input.sessionId,
    ...(input.model ? { compactionModel: input.model } : {}),
    kind: "compaction",
    preempt: ["turn"],
    onCancel: () => request.controller.abort(),
    work: async ({ opened, run, sink }) => {
      const { controller, unlink } = linkedController(request.controller.signal, run.signal);
      try {
        const tree = opened.agent.tree;
        const original = tree.getEntry(input.compactionId);
        if (original?.type !== "compaction") throw new Error(`Entry ${input.compactionId} is not a compaction`);
        const model = opened.compactionModel;
        if (!model.hasApiKey) throw new Error(`No API key for ${model.info.provider}`);
        const before = tree.getLeafId();
        if (original.parentId === null) tree.resetLeaf();
        else tree.branch(original.parentId);
        const details: Record<string, unknown> = { arborModel: model.info.ref };
        if (input.focus) details.arborFocus = input.focus;
        if (input.prompt) details.arborPrompt = input.prompt;
        await opened.agent.compact(input.focus, {
          signal: controller.signal,
          details,
          ...(input.prompt ? { promptOverride: input.prompt } : {}),
        });
        const made = tree.getLeafId();
        if (made && before !== made) {
          const back = { sessionId: input.sessionId, expectedLeafId: made };
          await (before === null ? resetLeaf(back) : branch({ ...back, targetId: before }));
          sink.data("navigated", { leafId: before, previousLeafId: made, cancelled: false });
        }
      } finally {
        unlink();
        request.unlink();
      }
    },
  });
}

export const notACompaction = (id: string) => jsonError(404, `Entry ${id} is not a compaction`, "not_found");
