/**
 * GET /api/sessions/facets — the session list's groups: 200 `{ total, agents, projects, models }`,
 * each a `{ value, sessions }[]` of live sessions, most sessions first
 * (lib/db/search/session-facets.ts); 503 when the database is unreachable.
 */
import { NextResponse } from "next/server";
import { refuseAnonymous } from "@/lib/auth/guard";
import { sessionFacets } from "@/lib/db";
import { withDatabaseErrors } from "@/lib/http/route-helpers";

export const dynamic = "force-dynamic";

export async function GET(request: Request) {
  const refused = await refuseAnonymous(request);
  if (refused) return refused;
  return withDatabaseErrors(async () => NextResponse.json(await sessionFacets()));
}
