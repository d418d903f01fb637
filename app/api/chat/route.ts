/**
 * POST /api/chat — run one chat turn on a stored session and stream it (conventions rule 5).
 *
 * Body (schema.ts): `{ id: sessionId, message: SessionUIMessage (the newest user message only), model? }`.
 * 200: an AI SDK UI message stream (protocol: lib/chat-protocol/ui-types.ts): `start`, per model call
 * `start-step` / `reasoning-*` / `text-*` / `finish-step`, transient `data-entry` (every saved
 * entry, with the leaf), `data-compaction`, `data-retry`, `data-prune`, `data-usage`,
 * `data-error`, then `finish`.
 * Errors, as JSON `{ error, code }`: 400 bad body / no text / unavailable model, 404 unknown
 * session, 409 something already running in the session, 413 body over 1 MB, 415 a body that is
 * not JSON, 503 the database is unreachable.
 * The turn outlives the request: a disconnected client does not stop it (POST /api/chat/stop does).
 */
import { jsonError, parseJsonBody, withDatabaseErrors } from "@/lib/http/route-helpers";
import { startChatTurn, userContentOf } from "@/lib/chat/turn";
import { chatBodySchema } from "./schema";
import { refuseAnonymous } from "@/lib/auth/guard";

export const dynamic = "force-dynamic";

export async function POST(request: Request): Promise<Response> {
  const refused = await refuseAnonymous(request);
  if (refused) return refused;
  const body = await parseJsonBody(request, chatBodySchema);
  if (!body.ok) return body.response;
  const content = userContentOf(body.value.message.parts);
  if (content === undefined) return jsonError(400, "message: the message has no text", "invalid_input");
  const { id, model } = body.value;
  return withDatabaseErrors(() => startChatTurn({ sessionId: id, content, ...(model ? { model } : {}) }));
}
