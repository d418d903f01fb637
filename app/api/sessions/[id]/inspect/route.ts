/**
 * GET /api/sessions/[id]/inspect — what the model saw, as the Context inspector shows it:
 * 200 `{ turn: TurnView }` (lib/inspector/types.ts) for exactly one of
 * - `?entry=<assistantEntryId>`: the recorded call that produced the entry, else a
 *   reconstruction from the session (origin "reconstructed", with a note saying so);
 * - `?call=<callId>`: a recorded call (any kind);
 * - `?preview=1`: what the next turn will send if the user sends now, including pending pruning
 *   and a pending automatic compaction (origin "preview"), for the session's chat model.
 * Each view carries its diff against the previous turn. 400 `{ error }` for a malformed or
 * ambiguous query, 404 for an unknown session / entry / call, 422 when the entry is not an
 * assistant message (nothing was sent to the model for it), 503 when the database is unreachable.
 * At most two statements when the read model is current (lib/inspector/inspect.ts).
 */
import { NextResponse } from "next/server";
import { z } from "zod";
import { withDatabaseErrors } from "@/lib/http/route-helpers";
import { readSessionConfig } from "@/lib/chat-protocol/session-config";
import { selectModels, sessionModelRef } from "@/lib/chat/model-selection";
import { chatRegistry } from "@/lib/chat/runtime-config";
import { inspectCall, inspectEntry, inspectNextTurn } from "@/lib/inspector/inspect";
import { loadPrompts } from "@/lib/llm/prompts";
import { jsonError } from "@/lib/http/json-error";
import { callIdSchema, invalid, sessionNotFound, sessionParamsSchema } from "../calls/params";
import { entryIdSchema } from "@/lib/id-schema";
import { refuseAnonymous } from "@/lib/auth/guard";

export const dynamic = "force-dynamic";

const querySchema = z
  .object({
    entry: entryIdSchema.optional(),
    call: callIdSchema.optional(),
    preview: z.enum(["1", "true"], { message: "preview must be 1" }).optional(),
  })
  .refine((q) => [q.entry, q.call, q.preview].filter((v) => v !== undefined).length === 1, {
    message: "give exactly one of entry=<assistantEntryId>, call=<callId> or preview=1",
  });

export async function GET(request: Request, ctx: { params: Promise<{ id: string }> }) {
  const refused = await refuseAnonymous(request);
  if (refused) return refused;
  const params = sessionParamsSchema.safeParse(await ctx.params);
  if (!params.success) return invalid(params.error);
  const search = new URL(request.url).searchParams;
  const query = querySchema.safeParse({
    entry: search.get("entry") ?? undefined,
    call: search.get("call") ?? undefined,
    preview: search.get("preview") ?? undefined,
  });
  if (!query.success) return invalid(query.error);
  const { id } = params.data;
  return withDatabaseErrors(() => answer(id, query.data));
}

async function answer(id: string, query: z.output<typeof querySchema>): Promise<Response> {
  const prompts = loadPrompts();
  const ok = (turn: unknown) => NextResponse.json({ turn }, { headers: { "cache-control": "no-store" } });

  if (query.call) {
    const turn = await inspectCall({ sessionId: id, callId: query.call, prompts });
    return turn ? ok(turn) : jsonError(404, `Model call ${query.call} not found in session ${id}`, "not_found");
  }
  if (query.entry) {
    const turn = await inspectEntry({ sessionId: id, entryId: query.entry, prompts });
    if (turn === "not_assistant") {
      return jsonError(422, `Entry ${query.entry} is not an assistant message: nothing was sent to the model for it`, "not_applicable");
    }
    return turn ? ok(turn) : jsonError(404, `Entry ${query.entry} not found in session ${id}`, "not_found");
  }

  // The session's settings come from the same read as its entries and calls (no extra statement).
  const turn = await inspectNextTurn({
    sessionId: id,
    prompts,
    configure: async (meta, branch) => {
      const config = readSessionConfig(meta.settings);
      const registry = chatRegistry();
      await registry.ensureModels();
      // The model the next turn will use, as the meter and the picker show it (lib/chat/next-model).
      const { chat } = selectModels(registry, { agent: config.agent, settings: config.settings, recorded: sessionModelRef(branch) });
      return {
        settings: config.settings.compaction,
        model: { ref: chat.info.ref, provider: chat.info.provider, id: chat.info.id, contextWindow: chat.info.contextWindow },
      };
    },
  });
  return turn ? ok(turn) : sessionNotFound(id);
}
