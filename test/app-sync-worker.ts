/**
 * An app process's folder watcher for lib/sync/app-sync-multi.test.ts: the REAL startAppSync on
 * the database named by DATABASE_URL, watching the consented roots as ARBOR_AUTO_SYNC=all does
 * (ARBOR_ALLOWED_ROOTS of this process and the allowed_roots rows), with short polls. Run it as
 * `tsx --conditions=react-server test/app-sync-worker.ts`.
 * stdout: one JSON line per event: `{ event: "ready", pid }`, `{ event: "watching", folders }`
 * (folders null: stopped watching), `{ event: "run", counts }`, `{ event: "error", message }`.
 */
import { consentedFolders, startAppSync } from "@/lib/sync/app-sync";
import { errorText } from "@/lib/text/error-text";

const say = (v: unknown) => process.stdout.write(`${JSON.stringify(v)}\n`);

const sync = startAppSync({
  folders: () => consentedFolders("all"),
  pollMs: 150,
  debounceMs: 100,
  settleMs: 0,
  onWatching: (folders) => say({ event: "watching", folders }),
  onRun: (summary) => say({ event: "run", counts: summary.counts }),
  onError: (error) => say({ event: "error", message: errorText(error) }),
});
say({ event: "ready", pid: process.pid });
process.stdin.resume();
process.stdin.on("end", () => {
  void sync.stop().then(() => process.exit(0));
});
