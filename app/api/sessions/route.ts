/**
 * GET /api/sessions?q=&cursor=&limit= — one page of the session list (the client's refetch source).
 * 200 `{ sessions: SessionSummary[], nextCursor: string | null }`, newest activity first; `q` is a
 * full-text search on the server. 400 `{ error }` for bad parameters.
 */
import { NextResponse } from "next/server";
import { z } from "zod";
import { listSessions } from "@/lib/db/session-store";

export const dynamic = "force-dynamic";

const paramsSchema = z.object({
  q: z.string().max(500, "The search is too long (500 characters at most)").optional(),
  cursor: z.string().max(1000).optional(),
  limit: z.coerce.number().int().min(1).max(200).optional(),
});

export async function GET(request: Request) {
  const params = Object.fromEntries(new URL(request.url).searchParams);
  const parsed = paramsSchema.safeParse(params);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return NextResponse.json({ error: `Bad ${issue?.path.join(".") || "parameter"}: ${issue?.message}` }, { status: 400 });
  }
  const { q, cursor, limit } = parsed.data;
  return NextResponse.json(await listSessions({ query: q, cursor: cursor ?? null, limit }));
}
