/**
 * GET /api/sessions/[id]/events — Server-Sent Events: the session's changes as they are committed,
 * from any process on the database (a chat turn, a folder sync appending an agent's new lines).
 *
 * Events: `ready` once listening (data `{}`: a client fetches the delta once, for what was committed
 * between its page's load and this moment); then `change` per commit (data `{"rev":N}`), or `{"rev":null}` after the
 * listening connection was lost and restored (something may have changed). A comment line every
 * HEARTBEAT_MS keeps proxies from closing an idle stream. The page fetches only the delta on each
 * event (`?since=`, lib/query/session.ts). Closing the request stops the watch.
 * 400 for a malformed id, 404 for an unknown or deleted session, 503 when the database is
 * unreachable (before the stream starts).
 */
import { findSessionMeta, isLiveSession } from "@/lib/db";
import { refuseAnonymous } from "@/lib/auth/guard";
import { sessionNotFound } from "@/lib/http/route-helpers";
import { watchSession } from "@/lib/runs";
import { type RouteContext, sessionParamsSchema, sessionRoute } from "../preamble";

export const dynamic = "force-dynamic";

const HEARTBEAT_MS = 15_000;

function sse(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

export async function GET(request: Request, ctx: RouteContext<{ id: string }>) {
  const refused = await refuseAnonymous(request);
  if (refused) return refused;
  return sessionRoute(ctx, sessionParamsSchema, async ({ id }) => {
    const encoder = new TextEncoder();
    let send: (text: string) => void = () => undefined;
    // Listening first, then checking the session: nothing committed after `ready` is missed.
    const stop = await watchSession(id, (rev) => send(sse("change", { rev })));
    const meta = await findSessionMeta({ id }).catch((error: unknown) => {
      stop();
      throw error;
    });
    if (!isLiveSession(meta)) {
      stop();
      return sessionNotFound(id);
    }
    let heartbeat: ReturnType<typeof setInterval> | undefined;
    const close = () => {
      stop();
      if (heartbeat) clearInterval(heartbeat);
      send = () => undefined;
    };
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        send = (text) => {
          try {
            controller.enqueue(encoder.encode(text));
          } catch {
            close();
          }
        };
        send(`retry: 2000\n${sse("ready", {})}`);
        heartbeat = setInterval(() => send(": heartbeat\n\n"), HEARTBEAT_MS);
        request.signal.addEventListener("abort", () => {
          close();
          try {
            controller.close();
          } catch {
            // already closed
          }
        });
      },
      cancel: close,
    });
    return new Response(body, {
      headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-store, no-transform", "x-accel-buffering": "no" },
    });
  });
}
