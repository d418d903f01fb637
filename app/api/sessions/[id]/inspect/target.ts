/**
 * What the inspect routes share: the query naming one turn (`entry=`, `call=` or `preview=1`,
 * exactly one), the answers for a turn that is not there, and how the preview finds the model
 * and settings of the next turn (as the meter and the picker do: lib/chat/next-model).
 */
import { z } from "zod";
import { readSessionConfig } from "@/lib/chat-protocol/session-config";
import { selectModels, sessionModelRef } from "@/lib/chat/model-selection";
import { chatRegistry } from "@/lib/chat/runtime-config";
import { jsonError } from "@/lib/http/json-error";
import { entryIdSchema } from "@/lib/id-schema";
import type { NextTurnConfig } from "@/lib/inspector/inspect";
import type { InspectTarget } from "@/lib/types/inspector";
import type { SessionMeta } from "@/lib/db";
import type { SessionEntry } from "@/lib/session/types";
import { callIdSchema } from "../preamble";
import { sessionNotFound } from "@/lib/http/route-helpers";

export const targetSchema = z
  .object({
    entry: entryIdSchema.optional(),
    call: callIdSchema.optional(),
    preview: z.enum(["1", "true"], { message: "preview must be 1" }).optional(),
  })
  .refine((q) => [q.entry, q.call, q.preview].filter((v) => v !== undefined).length === 1, {
    message: "give exactly one of entry=<assistantEntryId>, call=<callId> or preview=1",
  });

/** The raw target fields of a query string, for targetSchema. */
export function targetFields(search: URLSearchParams) {
  return { entry: search.get("entry") ?? undefined, call: search.get("call") ?? undefined, preview: search.get("preview") ?? undefined };
}

export function toTarget(q: z.output<typeof targetSchema>): InspectTarget {
  if (q.call) return { kind: "call", callId: q.call };
  if (q.entry) return { kind: "entry", entryId: q.entry };
  return { kind: "preview" };
}

/** 404 for a turn that is not in session `id`, 422 for an entry that is not an assistant message. */
export function turnMissing(id: string, target: InspectTarget, found: "not_assistant" | null): Response {
  if (target.kind === "call") return jsonError(404, `Model call ${target.callId} not found in session ${id}`, "not_found");
  if (target.kind === "entry" && found === "not_assistant") {
    return jsonError(422, `Entry ${target.entryId} is not an assistant message: nothing was sent to the model for it`, "not_applicable");
  }
  if (target.kind === "entry") return jsonError(404, `Entry ${target.entryId} not found in session ${id}`, "not_found");
  return sessionNotFound(id);
}

/** The model and compaction settings the next turn will use. The settings come from the same read as the entries (no extra statement). */
export async function configureNextTurn(meta: SessionMeta, branch: readonly SessionEntry[]): Promise<NextTurnConfig> {
  const config = readSessionConfig(meta.settings);
  const registry = chatRegistry();
  await registry.ensureModels();
  const { chat } = selectModels(registry, { agent: config.agent, settings: config.settings, recorded: sessionModelRef(branch) });
  return {
    settings: config.settings.compaction,
    model: { ref: chat.info.ref, provider: chat.info.provider, id: chat.info.id, contextWindow: chat.info.contextWindow },
  };
}
