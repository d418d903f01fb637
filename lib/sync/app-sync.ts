import "server-only";
/**
 * The app keeps the consented folders in sync by itself while it runs (docs/formats.md "Sync"):
 * the folders the user ticked on the first start (the `allowed_roots` rows), watched as `sync
 * --watch` watches them (watch.ts). ARBOR_ALLOWED_ROOTS are watched too only with
 * `ARBOR_AUTO_SYNC=all`: they may name broad trees (a home's projects, for the agent's project
 * folders) that the user allowed for syncing from the page, not for importing every `*.jsonl` in
 * them unasked.
 *
 * One watcher per database, not one per process: every app process calls `startAppSync`, and
 * each `pollMs` a process that does not watch tries the watch lock (lib/runs watch-lock.ts); the
 * one that gets it watches. It checks each poll that it still holds the lock (a lost connection
 * drops it on the server: then it stops watching, and whoever takes the lock next watches) and
 * whether the consented folders changed (a folder ticked on the first start: the watch restarts
 * with it). When the watching process dies its lock goes with its connection, and another process
 * takes over within one poll. Syncs started from a page meanwhile do not collide with it: one
 * sync of a file at a time (lib/runs file-lock.ts).
 *
 * Folders nested in another watched folder are watched once, through the outer one; folders
 * that do not exist are left out until they do. `ARBOR_AUTO_SYNC=off` turns the watcher off.
 */
import { type LockClient, releaseWatch, stillWatching, tryTakeWatch } from "@/lib/runs";
import { isInside } from "@/lib/tools/folder-in-roots";
import { errorText } from "@/lib/text/error-text";
import { listAllowedRoots } from "@/lib/db";
import { allowedRealRoots } from "./allowed";
import type { SyncEvent, SyncSummary } from "./sync-folders";
import { type FolderWatch, watchFolders } from "./watch";

export const APP_SYNC_POLL_MS = 2_000;

export interface AppSyncOptions {
  pollMs?: number;
  debounceMs?: number;
  settleMs?: number;
  /** The connection the watch lock is taken on (default: the run registry's). */
  client?: LockClient;
  /** The folders to watch (default: the folders ticked on the first start, `consentedFolders`). */
  folders?: () => Promise<string[]>;
  onEvent?: (e: SyncEvent) => void;
  onRun?: (summary: SyncSummary) => void;
  /** Became the watcher of `folders`, or stopped watching (`null`). */
  onWatching?: (folders: string[] | null) => void;
  onError?: (error: unknown) => void;
}

export interface AppSync {
  /** The folders this process watches now; empty when another process watches (or none are consented). */
  watching(): string[];
  stop(): Promise<void>;
}

/** The folders the watcher keeps in sync: ticked on the first start, and with "all" ARBOR_ALLOWED_ROOTS too. */
export async function consentedFolders(mode: "on" | "all"): Promise<string[]> {
  return allowedRealRoots(mode === "all" ? undefined : await listAllowedRoots());
}

/** Outer folders only: a folder inside another is watched through it. */
export function outermost(folders: readonly string[]): string[] {
  const unique = [...new Set(folders)].sort();
  return unique.filter((f) => !unique.some((g) => g !== f && isInside(g, f)));
}

export function startAppSync(opts: AppSyncOptions = {}): AppSync {
  const pollMs = opts.pollMs ?? APP_SYNC_POLL_MS;
  const folders = opts.folders ?? (() => consentedFolders("on"));
  let holder: Awaited<ReturnType<typeof tryTakeWatch>> = null;
  let watch: FolderWatch | null = null;
  let current: string[] = [];
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let lastError = "";

  const unwatch = async () => {
    const w = watch;
    watch = null;
    current = [];
    if (w) {
      await w.stop();
      opts.onWatching?.(null);
    }
  };
  const rewatch = async () => {
    const wanted = outermost(await folders());
    if (wanted.join("\0") === current.join("\0") && (watch || wanted.length === 0)) return;
    await unwatch();
    if (wanted.length === 0) return;
    current = wanted;
    watch = await watchFolders(wanted, {
      roots: wanted,
      ...(opts.debounceMs !== undefined ? { debounceMs: opts.debounceMs } : {}),
      ...(opts.settleMs !== undefined ? { settleMs: opts.settleMs } : {}),
      ...(opts.onEvent ? { onEvent: opts.onEvent } : {}),
      onRun: (summary) => opts.onRun?.(summary),
      onError: (error) => opts.onError?.(error),
    });
    opts.onWatching?.(wanted);
  };
  const tick = async () => {
    try {
      if (holder && !(await stillWatching(holder))) {
        holder = null;
        await unwatch();
      }
      holder ??= await tryTakeWatch(opts.client);
      if (holder && !stopped) await rewatch();
      lastError = "";
    } catch (error) {
      // The database may be away for a while: say so once, and try again next poll.
      const text = errorText(error);
      if (text !== lastError) opts.onError?.(error);
      lastError = text;
    }
  };
  let inflight: Promise<void> = Promise.resolve();
  const loop = async () => {
    inflight = tick();
    await inflight;
    if (!stopped) {
      timer = setTimeout(() => void loop(), pollMs);
      timer.unref?.();
    }
  };
  void loop();

  return {
    watching: () => [...current],
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await inflight;
      await unwatch();
      if (holder) await releaseWatch(holder);
      holder = null;
    },
  };
}

const KEY = Symbol.for("arbor.sync.appSync");
type Global = typeof globalThis & { [KEY]?: AppSync };

/** The app's watcher, started once per process (instrumentation.ts); logs what it does. */
export function startAppSyncOnce(mode: "on" | "all" = "on"): AppSync {
  const g = globalThis as Global;
  g[KEY] ??= startAppSync({
    folders: () => consentedFolders(mode),
    onWatching: (folders) => console.log(folders ? `arbor: keeping ${folders.join(", ")} in sync` : "arbor: no longer watching the synced folders"),
    onRun: (summary) => {
      const c = summary.counts;
      if (c.imported + c.appended + c.rewritten + c.failed === 0) return;
      console.log(`arbor: synced: ${c.imported} imported, ${c.appended} appended, ${c.rewritten} rewritten, ${c.failed} failed`);
      for (const f of summary.files) if (f.outcome.kind === "failed") console.warn(`arbor: ${f.file}: ${f.outcome.message}`);
    },
    onError: (error) => console.warn(`arbor: the folder sync: ${errorText(error)}`),
  });
  return g[KEY];
}
