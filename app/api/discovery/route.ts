/**
 * The first start's agent folders (lib/sync/discover.ts) and the user's consent to sync them.
 *
 * GET — `{ folders: [{ agent, label, path, files, bytes, syncable, allowed }] }`: the agent folders
 * on this machine with their session files and bytes (names and sizes only: nothing is read), and
 * whether each is already allowed (inside ARBOR_ALLOWED_ROOTS or consented before).
 * POST `{ folders: string[] }` — the user ticked these: each must be one of the syncable folders
 * GET lists (400 otherwise, naming it); they are remembered as allowed roots in the database, so
 * the sync (POST /api/sync) may then sync them. Answers `{ allowed: string[] }` (real paths).
 * Both need a signed-in user when sign-in is on (the app bound to a non-loopback address); POST
 * refuses a foreign Host or Origin. 503 when the database is unreachable.
 */
import { realpath } from "node:fs/promises";
import { NextResponse } from "next/server";
import { z } from "zod";
import { allowRoots } from "@/lib/db";
import { refuseAnonymous } from "@/lib/auth/guard";
import { refuseForeign } from "@/lib/http/guard-request";
import { jsonError } from "@/lib/http/json-error";
import { parseJsonBody, withDatabaseErrors } from "@/lib/http/route-helpers";
import { isInside } from "@/lib/tools/workspace";
import { syncRoots } from "@/lib/sync/allowed";
import { discoverAgentFolders } from "@/lib/sync/discover";

export const dynamic = "force-dynamic";

const bodySchema = z.object({ folders: z.array(z.string(), { error: "expected folders: a list of folder paths" }).min(1, "tick at least one folder").max(20) }).strict();

async function isAllowed(folder: string, roots: readonly string[]): Promise<boolean> {
  const real = await realpath(folder).catch(() => null);
  if (!real) return false;
  for (const root of roots) {
    const r = await realpath(root).catch(() => null);
    if (r && isInside(r, real)) return true;
  }
  return false;
}

export async function GET(request: Request): Promise<Response> {
  const refused = await refuseAnonymous(request);
  if (refused) return refused;
  return withDatabaseErrors(async () => {
    const roots = await syncRoots();
    const folders = await Promise.all((await discoverAgentFolders()).map(async (f) => ({ ...f, allowed: await isAllowed(f.path, roots) })));
    return NextResponse.json({ folders }, { headers: { "cache-control": "no-store" } });
  });
}

export async function POST(request: Request): Promise<Response> {
  const foreign = refuseForeign(request);
  if (foreign) return foreign;
  const refused = await refuseAnonymous(request);
  if (refused) return refused;
  const body = await parseJsonBody(request, bodySchema);
  if (!body.ok) return body.response;
  const found = new Map((await discoverAgentFolders()).filter((f) => f.syncable).map((f) => [f.path, f]));
  const real: string[] = [];
  for (const folder of body.value.folders) {
    if (!found.has(folder)) return jsonError(400, `${folder} is not one of the agent folders found on this machine`, "invalid_input");
    real.push(await realpath(folder));
  }
  return withDatabaseErrors(async () => {
    await allowRoots(real);
    return NextResponse.json({ allowed: real });
  });
}
