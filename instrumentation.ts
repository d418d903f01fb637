/**
 * Next.js calls `register` once when a server process starts: in the Node.js runtime it starts the
 * app's folder watcher (lib/sync/app-sync.ts: one process per database watches, chosen by an
 * advisory lock) for the folders ticked on the first start (with ARBOR_AUTO_SYNC=all also
 * ARBOR_ALLOWED_ROOTS), unless ARBOR_AUTO_SYNC=off.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { env } = await import("@/lib/env");
  if (env.ARBOR_AUTO_SYNC === "off") return;
  const { startAppSyncOnce } = await import("@/lib/sync/app-sync");
  startAppSyncOnce(env.ARBOR_AUTO_SYNC === "all" ? "all" : "on");
}
