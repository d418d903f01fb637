/**
 * Parameters of the session file routes, validated with zod: the session id (route segment) and
 * the workspace-relative `?path=`. Confinement is not checked here: lib/tools' safePath does that
 * (and refuses "../x", absolute and "~" paths with a message naming the path).
 */
import { z } from "zod";
import { describeIssues, jsonError } from "@/lib/http/route-helpers";
import { sessionIdSchema } from "@/lib/id-schema";

export const filesParamsSchema = z.object({ id: sessionIdSchema });

export const filePathSchema = z.object({
  path: z
    .string({ error: "path: a workspace-relative file path is required (?path=…)" })
    .min(1, { error: "path: a workspace-relative file path is required (?path=…)" })
    .max(4096, { error: "path: at most 4096 characters" }),
});

export type Parsed<T> = { ok: true; value: T } | { ok: false; response: Response };

export async function parseSessionId(ctx: { params: Promise<{ id: string }> }): Promise<Parsed<string>> {
  const parsed = filesParamsSchema.safeParse(await ctx.params);
  if (!parsed.success) return { ok: false, response: jsonError(400, describeIssues(parsed.error), "invalid_input") };
  return { ok: true, value: parsed.data.id };
}

export function parseFilePath(request: Request): Parsed<string> {
  const raw = new URL(request.url).searchParams.get("path") ?? undefined;
  const parsed = filePathSchema.safeParse({ path: raw });
  if (!parsed.success) return { ok: false, response: jsonError(400, parsed.error.issues[0]?.message ?? "path: invalid", "invalid_input") };
  return { ok: true, value: parsed.data.path };
}
