/**
 * POST /api/chat/stop — the Stop button: aborts the session's running turn, manual compaction
 * or branch summary. Body `{ id: sessionId }`. 200 `{ ok: true, stopped }` (`stopped: false`
 * when nothing was running); 400 for a bad body. An aborted turn saves its partial message with
 * stopReason "aborted"; an aborted compaction or summary writes nothing.
 */
import { parseJsonBody } from "@/lib/chat/http";
import { abortRun } from "@/lib/chat/running";
import { stopBodySchema } from "../schema";
import { refuseAnonymous } from "@/lib/auth/guard";

export const dynamic = "force-dynamic";

export async function POST(request: Request): Promise<Response> {
  const refused = await refuseAnonymous(request);
  if (refused) return refused;
  const body = await parseJsonBody(request, stopBodySchema);
  if (!body.ok) return body.response;
  return Response.json({ ok: true, stopped: abortRun(body.value.id) });
}
