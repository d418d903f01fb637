/**
 * The one preamble of the /api/sessions/[id]/** routes, after the handler itself has refused
 * anonymous requests (`await refuseAnonymous(request)` stays in every handler, where
 * lib/auth/guard-coverage.test.ts looks for it):
 * - `sessionRoute`: validate the route parameters with zod (a malformed id is a 400 naming the
 *   problem), then run the work with a lost database answered 503 (withDatabaseErrors);
 * - `sessionViewRoute`: the light-page routes (skeleton, entries, search, tree): also the query,
 *   and the session read through the read model (404 for an unknown or deleted session);
 * - the parameter schemas, `parseFilePath` (the file routes' `?path=`) and the 400 body.
 * A well-formed id that names nothing is a 404 (lib/http/route-helpers.ts `sessionNotFound`, the
 * one wording). Every body is `{ error, code }` (lib/http/json-error.ts).
 */
import { NextResponse } from "next/server";
import { z } from "zod";
import { readLiveSession, type SessionView } from "@/lib/db";
import { jsonError } from "@/lib/http/json-error";
import { sessionNotFound, withDatabaseErrors } from "@/lib/http/route-helpers";
import { entryIdSchema, sessionIdSchema } from "@/lib/id-schema";

/** Call ids are v4 UUIDs (lib/db/model-calls.ts). */
export const callIdSchema = z.uuid({ message: "call id must be a UUID" });

export const sessionParamsSchema = z.object({ id: sessionIdSchema });
export const callParamsSchema = z.object({ id: sessionIdSchema, callId: callIdSchema });
export const entryParamsSchema = z.object({ id: sessionIdSchema, entryId: entryIdSchema });

/** A handler's second argument: the route segments, as Next passes them. */
export type RouteContext<P> = { params: Promise<P> };

export function invalid(error: z.ZodError) {
  return jsonError(400, error.issues[0]?.message ?? "invalid request", "invalid_input");
}

/** The route parameters checked with `schema` (400 for bad ones), then `work` with database errors answered (503). */
export async function sessionRoute<S extends z.ZodType>(
  ctx: RouteContext<unknown>,
  schema: S,
  work: (params: z.output<S>) => Promise<Response>,
): Promise<Response> {
  const params = schema.safeParse(await ctx.params);
  if (!params.success) return invalid(params.error);
  return withDatabaseErrors(() => work(params.data));
}

/** A light-page route: the session id and the query checked, the session read (404 when unknown), then `answer`. */
export function sessionViewRoute<Q>(
  request: Request,
  ctx: RouteContext<{ id: string }>,
  query: z.ZodType<Q>,
  answer: (view: SessionView, query: Q) => unknown | Promise<unknown>,
): Promise<Response> {
  return sessionRoute(ctx, sessionParamsSchema, async ({ id }) => {
    const parsed = query.safeParse(Object.fromEntries(new URL(request.url).searchParams));
    if (!parsed.success) return invalid(parsed.error);
    const view = await readLiveSession({ sessionId: id });
    if (!view) return sessionNotFound(id);
    const body = await answer(view, parsed.data);
    // A route that streams (the skeleton as lines) answers with its own Response.
    if (body instanceof Response) return body;
    return NextResponse.json(body, { headers: { "cache-control": "no-store" } });
  });
}

const filePathSchema = z.object({
  path: z
    .string({ error: "path: a workspace-relative file path is required (?path=…)" })
    .min(1, { error: "path: a workspace-relative file path is required (?path=…)" })
    .max(4096, { error: "path: at most 4096 characters" }),
});

/**
 * The file routes' workspace-relative `?path=`. Confinement is not checked here: lib/tools'
 * safePath does that (and refuses "../x", absolute and "~" paths with a message naming the path).
 */
export function parseFilePath(request: Request): { ok: true; value: string } | { ok: false; response: Response } {
  const raw = new URL(request.url).searchParams.get("path") ?? undefined;
  const parsed = filePathSchema.safeParse({ path: raw });
  if (!parsed.success) return { ok: false, response: invalid(parsed.error) };
  return { ok: true, value: parsed.data.path };
}
