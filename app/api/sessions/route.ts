/**
 * GET /api/sessions?q=&cursor=&limit=&sort=&agent=&project=&model=&from=&before= — one page of the
 * session list (the client's refetch source). 200 `{ sessions: SessionSummary[], nextCursor: string | null }`,
 * newest activity first, or costliest first with `sort=cost` (without `q`); `q` is a full-text
 * search on the server; `agent` (a format id), `project` (a cwd), `model` ("provider/modelId"),
 * `from` / `before` (ISO dates of last activity) filter it (lib/db/search/session-list.ts). 400 `{ error }` for bad parameters, 503 when the database is
 * unreachable.
 */
import { NextResponse } from "next/server";
import { z } from "zod";
import { jsonError, withDatabaseErrors } from "@/lib/http/route-helpers";
import { listSessions, purgeExpiredTrash } from "@/lib/db";
import { refuseAnonymous } from "@/lib/auth/guard";

export const dynamic = "force-dynamic";

/** PostgreSQL text cannot hold U+0000. */
const NO_NUL = /^[^\u0000]*$/;

const paramsSchema = z.object({
  q: z.string().max(500, "The search is too long (500 characters at most)").optional(),
  cursor: z.string().max(1000).optional(),
  limit: z.coerce.number().int().min(1).max(200).optional(),
  agent: z.enum(["pi", "claude-code", "codex", "gemini", "opencode"]).optional(),
  project: z.string().max(4096).regex(NO_NUL, "must not hold a NUL character").optional(),
  model: z.string().max(500).regex(NO_NUL, "must not hold a NUL character").optional(),
  from: z.coerce.date().optional(),
  before: z.coerce.date().optional(),
  sort: z.enum(["activity", "cost"]).optional(),
});

export async function GET(request: Request) {
  const refused = await refuseAnonymous(request);
  if (refused) return refused;
  const params = Object.fromEntries(new URL(request.url).searchParams);
  const parsed = paramsSchema.safeParse(params);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return jsonError(400, `Bad ${issue?.path.join(".") || "parameter"}: ${issue?.message}`, "invalid_input");
  }
  const { q, cursor, limit, sort, agent, project, model, from, before } = parsed.data;
  // Sessions in the trash past their 30 days go for good (at most hourly; lib/db/store/session-trash.ts).
  void purgeExpiredTrash();
  const filter = { ...(agent ? { agent } : {}), ...(project !== undefined ? { project } : {}), ...(model !== undefined ? { model } : {}), ...(from ? { activeFrom: from } : {}), ...(before ? { activeBefore: before } : {}) };
  return withDatabaseErrors(async () => NextResponse.json(await listSessions({ query: q, cursor: cursor ?? null, limit, sort, filter })));
}
