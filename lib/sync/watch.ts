import "server-only";
/**
 * Following synced folders: a first full sync, then every change is synced as it happens.
 *
 * Why `fs.watch(folder, { recursive: true })` and no watcher package: Node supports recursive
 * watching on Linux since 19.1 (Node 20 is the minimum here), as on macOS and Windows, so no
 * dependency is needed. Its events are hints only — they can be coalesced, doubled, or come
 * without a file name — so an event never carries data: it only names files to look at, and
 * syncFile decides from size, mtime and checksum what changed. A burst of writes (an agent
 * writing a response) is debounced: the changed files are synced `debounceMs` after the last
 * event, and at least every 4 × `debounceMs` while the writes go on (an agent streaming a long
 * response still shows up on the open page). The default is short because an appended line
 * should reach the open page within a second (docs/benchmarks.md, `live`); a sync of a file
 * that only grew reads just its new bytes. A file whose open last response was held back (sync-file.ts) is looked at again once
 * it has been quiet for `settleMs`. Syncs run one at a time; changes meanwhile wait for the next.
 *
 * `onEvent` gets the sync events (sync-folders.ts) of every run; `stop()` (or `signal`) closes
 * the watchers and waits for the running sync to end (aborted with the signal's reason).
 */
import { watch, type FSWatcher } from "node:fs";
import path from "node:path";
import { DEFAULT_SETTLE_MS } from "./sync-file";
import { realFolder, type SyncEvent, type SyncSummary, syncFolders } from "./sync-folders";

export const DEFAULT_DEBOUNCE_MS = 250;

export interface WatchOptions {
  debounceMs?: number;
  settleMs?: number;
  signal?: AbortSignal;
  onEvent?: (e: SyncEvent) => void;
  /** After each run (the first full sync included). */
  onRun?: (summary: SyncSummary, kind: "initial" | "changes") => void;
  onError?: (error: unknown) => void;
  /** Real paths every synced file must really lie in (sync-folders.ts); default: the folders as resolved at the start. */
  roots?: readonly string[];
}

export interface FolderWatch {
  /** Resolves once the first full sync is done. */
  ready: Promise<void>;
  stop(): Promise<void>;
}

export async function watchFolders(folders: readonly string[], opts: WatchOptions = {}): Promise<FolderWatch> {
  const real: string[] = [];
  for (const f of folders) real.push(await realFolder(f));
  const roots = opts.roots ?? [...real];
  const debounceMs = opts.debounceMs ?? DEFAULT_DEBOUNCE_MS;
  const settleMs = opts.settleMs ?? DEFAULT_SETTLE_MS;
  const controller = new AbortController();
  const signal = opts.signal ? AbortSignal.any([opts.signal, controller.signal]) : controller.signal;
  const pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  const laters = new Set<NodeJS.Timeout>();
  let running: Promise<void> = Promise.resolve();

  const run = (only: ReadonlySet<string> | undefined, kind: "initial" | "changes") => {
    running = running.then(async () => {
      if (signal.aborted) return;
      try {
        const summary = await syncFolders(real, { signal, settleMs, roots, ...(only ? { only } : {}), ...(opts.onEvent ? { onEvent: opts.onEvent } : {}) });
        for (const f of summary.files) if ((f.outcome.kind === "imported" || f.outcome.kind === "appended") && f.outcome.held) later(f.file);
        opts.onRun?.(summary, kind);
      } catch (error) {
        if (!signal.aborted) opts.onError?.(error);
      }
    });
    return running;
  };
  const flush = () => {
    timer = undefined;
    if (pending.size === 0) return;
    const only = new Set(pending);
    pending.clear();
    void run(only, "changes");
  };
  let firstPendingAt = 0;
  const touch = (file: string) => {
    if (pending.size === 0) firstPendingAt = Date.now();
    pending.add(file);
    // Writes that never pause still get synced: the wait is not pushed past 4 × debounceMs.
    if (timer && Date.now() - firstPendingAt >= 3 * debounceMs) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(flush, debounceMs);
  };
  // A held response is taken once the file has been quiet for settleMs.
  const later = (file: string) => {
    const t = setTimeout(() => {
      laters.delete(t);
      touch(file);
    }, settleMs + 50);
    laters.add(t);
  };

  const ready = run(undefined, "initial");
  const watchers: FSWatcher[] = real.map((folder) =>
    watch(folder, { recursive: true }, (_type, name) => {
      if (signal.aborted) return;
      if (name === null) {
        // No file name: look at the whole folder again.
        void run(undefined, "changes");
        return;
      }
      const file = path.join(folder, name.toString());
      // JSONL files, Gemini CLI's JSON recordings, opencode's storage files (sync-folders.ts sorts them out).
      if (file.endsWith(".jsonl") || file.endsWith(".json")) touch(file);
    }),
  );
  for (const w of watchers) w.on("error", (error) => opts.onError?.(error));

  const stop = async () => {
    controller.abort(new Error("sync stopped"));
    if (timer) clearTimeout(timer);
    for (const t of laters) clearTimeout(t);
    for (const w of watchers) w.close();
    await running;
  };
  signal.addEventListener("abort", () => void stop(), { once: true });
  return { ready, stop };
}
