/**
 * The shared shape of the light-page routes (skeleton, entries, search, tree), after the
 * handler itself has refused anonymous requests (`refuseAnonymous`): validate the session id and the query, read the session through the read model,
 * answer 404 for an unknown or deleted session and 503 for a lost database.
 */
import { NextResponse } from "next/server";
import type { z } from "zod";
import { withDatabaseErrors } from "@/lib/http/route-helpers";
import { readLiveSession, type SessionView } from "@/lib/db";
import { invalid, sessionNotFound, sessionParamsSchema } from "./calls/params";

export async function sessionViewRoute<Q>(
  request: Request,
  ctx: { params: Promise<{ id: string }> },
  query: z.ZodType<Q>,
  answer: (view: SessionView, query: Q) => unknown | Promise<unknown>,
): Promise<Response> {
  const params = sessionParamsSchema.safeParse(await ctx.params);
  if (!params.success) return invalid(params.error);
  const parsed = query.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) return invalid(parsed.error);
  const { id } = params.data;
  return withDatabaseErrors(async () => {
    const view = await readLiveSession({ sessionId: id });
    if (!view) return sessionNotFound(id);
    const body = await answer(view, parsed.data);
    // A route that streams (the skeleton as lines) answers with its own Response.
    if (body instanceof Response) return body;
    return NextResponse.json(body, { headers: { "cache-control": "no-store" } });
  });
}
