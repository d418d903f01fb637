/**
 * POST /api/chat/stop — the Stop button: aborts the session's running turn, manual compaction
 * or branch summary. Body `{ id: sessionId }`. 200 `{ ok: true, stopped }` (`stopped: false`
 * when nothing was running, here or in another app process on the same database — the process
 * that runs it is asked and must answer within 2 s); 400 for a bad body; 503 when the database is
 * unreachable and the run is not in this process. An aborted turn saves its partial message with
 * stopReason "aborted"; an aborted compaction or summary writes nothing.
 */
import { parseJsonBody, withDatabaseErrors } from "@/lib/http/route-helpers";
import { abortRun } from "@/lib/runs";
import { stopBodySchema } from "../schema";
import { refuseAnonymous } from "@/lib/auth/guard";

export const dynamic = "force-dynamic";

export async function POST(request: Request): Promise<Response> {
  const refused = await refuseAnonymous(request);
  if (refused) return refused;
  const body = await parseJsonBody(request, stopBodySchema);
  if (!body.ok) return body.response;
  const { id } = body.value;
  return withDatabaseErrors(async () => Response.json({ ok: true, stopped: await abortRun(id) }));
}
