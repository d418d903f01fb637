/**
 * GET /api/sessions/[id]/events — Server-Sent Events: the session's changes as they are committed,
 * from any process on the database (a chat turn, a folder sync appending an agent's new lines).
 *
 * Events: `ready` once listening (data `{}`: a client fetches the delta once, for what was committed
 * between its page's load and this moment); then `change` per commit (data `{"rev":N}`), or `{"rev":null}` after the
 * listening connection was lost and restored (something may have changed). A comment line every
 * HEARTBEAT_MS keeps proxies from closing an idle stream. The page fetches only the delta on each
 * event (`?since=`, lib/query/session.ts). Closing the request stops the watch (lib/http/sse-response.ts).
 * 400 for a malformed id, 404 for an unknown or deleted session, 503 when the database is
 * unreachable (before the stream starts).
 */
import { findSessionMeta, isLiveSession } from "@/lib/db";
import { refuseAnonymous } from "@/lib/auth/guard";
import { sessionNotFound } from "@/lib/http/route-helpers";
import { sseResponse } from "@/lib/http/sse-response";
import { watchSession } from "@/lib/runs";
import { type RouteContext, sessionParamsSchema, sessionRoute } from "../preamble";

export const dynamic = "force-dynamic";

export async function GET(request: Request, ctx: RouteContext<{ id: string }>) {
  const refused = await refuseAnonymous(request);
  if (refused) return refused;
  return sessionRoute(ctx, sessionParamsSchema, ({ id }) =>
    sseResponse(request, async (send) => {
      // Listening first, then checking the session: nothing committed after `ready` is missed.
      const stop = await watchSession(id, (rev) => send("change", { rev }));
      const meta = await findSessionMeta({ id }).catch((error: unknown) => {
        stop();
        throw error;
      });
      if (isLiveSession(meta)) return stop;
      stop();
      return sessionNotFound(id);
    }),
  );
}
