/**
 * Where Arbor keeps local data: `.data/` at the project root unless ARBOR_DATA_DIR says otherwise.
 * The embedded server's cluster (lib/postgres), the session secret (lib/auth/secret.ts) and the
 * agents' workspaces (lib/tools/workspace.ts) live under it. A module of its own so the launcher
 * can read it before anything else is loaded.
 */
import path from "node:path";
import { env } from "@/lib/env";

export function dataDir(): string {
  // A run-time data folder: the build must not trace (bundle) it.
  return path.resolve(/*turbopackIgnore: true*/ env.ARBOR_DATA_DIR ?? path.join(/*turbopackIgnore: true*/ process.cwd(), ".data"));
}
