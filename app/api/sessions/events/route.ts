/**
 * GET /api/sessions/events — Server-Sent Events for the session list: a `change` (data
 * `{"id":"…"}`) whenever a session is committed to or imported by a folder sync, in any process
 * on the database (lib/runs session-events.ts); `{"id":null}` after the listening connection was
 * lost and restored (anything may have changed). `ready` once listening; heartbeats as
 * lib/http/sse-response.ts sends them. The list refetches on each event (throttled:
 * components/sessions/use-live-list.ts). 503 when the database is unreachable.
 */
import { refuseAnonymous } from "@/lib/auth/guard";
import { withDatabaseErrors } from "@/lib/http/route-helpers";
import { sseResponse } from "@/lib/http/sse-response";
import { watchAllSessions } from "@/lib/runs";

export const dynamic = "force-dynamic";

export async function GET(request: Request): Promise<Response> {
  const refused = await refuseAnonymous(request);
  if (refused) return refused;
  return withDatabaseErrors(() => sseResponse(request, (send) => watchAllSessions((id) => send("change", { id }))));
}
