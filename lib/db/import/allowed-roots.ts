import "server-only";
/**
 * The `allowed_roots` rows (prisma/migrations/20270120000000_allowed_roots): folders the user
 * consented to sync from the web page (the first start's agent folders). lib/sync/allowed.ts
 * adds them to ARBOR_ALLOWED_ROOTS.
 */
import { getDb } from "../client";

export async function listAllowedRoots(): Promise<string[]> {
  const rows = await getDb().allowedRoot.findMany({ orderBy: { path: "asc" } });
  return rows.map((r) => r.path);
}

/** Remembers the user's consent for `paths` (absolute real paths); already allowed ones stay. */
export async function allowRoots(paths: readonly string[]): Promise<void> {
  if (paths.length === 0) return;
  await getDb().allowedRoot.createMany({ data: paths.map((path) => ({ path })), skipDuplicates: true });
}
