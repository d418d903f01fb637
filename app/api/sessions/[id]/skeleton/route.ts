/**
 * GET /api/sessions/[id]/skeleton[?since=N] — the session's skeleton (lib/types/session-page
 * `SkeletonPayload`): meta, one small row per entry (no contents), the context meter and the
 * model the next turn will use.
 * `since` = the entry count the client already has: only the entries appended after it
 * (`from` = N); a count the session does not have gives the whole skeleton (`from` = 0).
 * `format=ndjson`: the skeleton as lines (lib/session-view/skeleton-stream.ts), for sessions too large
 * for the page (the browser decodes it line by line); not with `since`. With `from` and `to`
 * (entry indexes, `to` excluded and cut at the count) only those rows: the browser reads a long
 * session in parts, since it finishes each response in one task that grows with its size.
 * 400 for a malformed id, `since`, `from` or `to`, 404 for an unknown session, 503 when the
 * database is unreachable.
 */
import { z } from "zod";
import { nextTurnModelOf } from "@/lib/chat/next-model";
import { skeletonPayload, skeletonStream } from "@/lib/session-view/server";
import { refuseAnonymous } from "@/lib/auth/guard";
import { sessionViewRoute } from "../preamble";

export const dynamic = "force-dynamic";

function entryIndex(name: string) {
  const message = `${name} must be an entry index`;
  return z.coerce.number({ message }).int(message).min(0, message);
}

const querySchema = z
  .object({
    since: z.coerce.number({ message: "since must be an entry count" }).int("since must be an entry count").min(0, "since must be an entry count").optional(),
    format: z.enum(["json", "ndjson"], { message: "format must be json or ndjson" }).optional(),
    from: entryIndex("from").optional(),
    to: entryIndex("to").optional(),
  })
  .refine((q) => q.format !== "ndjson" || q.since === undefined, { message: "format=ndjson sends the whole skeleton: leave out since" })
  .refine((q) => q.format === "ndjson" || (q.from === undefined && q.to === undefined), { message: "from and to go with format=ndjson" })
  .refine((q) => (q.from === undefined) === (q.to === undefined), { message: "from and to go together" })
  .refine((q) => q.from === undefined || q.to === undefined || q.from <= q.to, { message: "from must not be after to" });

/**
 * The lines as one complete body. Not a pull-driven stream: e2e saw a pulled NDJSON response
 * stop for good part-way through a 21k-entry session ("Loading tree… 76%") while the page stayed
 * responsive; a body built whole leaves the sending and its backpressure to Node. The browser
 * still reads it as it arrives (lib/query/skeleton-stream.ts). About 100 bytes per entry.
 */
function ndjson(lines: Generator<string>): Response {
  const body = Array.from(lines).join("");
  return new Response(body, { headers: { "content-type": "application/x-ndjson; charset=utf-8", "cache-control": "no-store" } });
}

export async function GET(request: Request, ctx: { params: Promise<{ id: string }> }) {
  const refused = await refuseAnonymous(request);
  if (refused) return refused;
  return sessionViewRoute(request, ctx, querySchema, async (view, q) => {
    const model = await nextTurnModelOf(view);
    if (q.format !== "ndjson") return skeletonPayload(view, q.since ?? 0, model);
    return ndjson(skeletonStream(view, model, q.from === undefined || q.to === undefined ? undefined : { from: q.from, to: q.to }));
  });
}
