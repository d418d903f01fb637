/**
 * POST /api/sync `{ folders: string[], watch?: boolean }` — syncs session folders (lib/sync) and
 * streams NDJSON events (events.ts): throttled `progress` of the file being imported, one
 * `file` line per file with what happened, a `run` summary. With `watch`, the stream stays open
 * and every change of the folders is synced and reported, until the request is aborted.
 * Aborting the request (the page's Cancel / Stop) aborts the file being imported (it rolls
 * back) and stops the sync.
 * Folders must lie inside ARBOR_ALLOWED_ROOTS (lib/sync/allowed.ts): 400 `{ error }` naming the
 * folder otherwise, and for a bad body; 415 for a body that is not JSON. Each file's real path
 * is checked against the roots every time it is read: a link out of them is a per-file error.
 */
import { z } from "zod";
import { refuseAnonymous } from "@/lib/auth/guard";
import { ndjsonResponse } from "@/lib/http/ndjson-response";
import { jsonError, parseJsonBody } from "@/lib/http/route-helpers";
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable } from "@/lib/db";
import { refuseForeign } from "@/lib/http/guard-request";
import { allowedRealRoots, allowedSyncFolder } from "@/lib/sync/allowed";
import { describeOutcome, type SyncEvent, SyncFolderError, syncFolders } from "@/lib/sync/sync-folders";
import { watchFolders } from "@/lib/sync/watch";
import type { SyncStreamEvent } from "@/lib/types/sync-events";
import { errorText } from "@/lib/text/error-text";

export const dynamic = "force-dynamic";

const PROGRESS_MS = 250;

const bodySchema = z
  .object({
    folders: z
      .array(z.string({ error: "expected each folder as a path (text)" }).trim().min(1, "a folder path is empty").max(4096, "a folder path is too long"), {
        error: "expected folders: a list of folder paths",
      })
      .min(1, "name at least one folder")
      .max(20, "at most 20 folders"),
    watch: z.boolean({ error: "expected watch to be true or false" }).optional(),
  })
  .strict();

function message(error: unknown): string {
  if (isDatabaseUnavailable(error)) return `${DATABASE_UNAVAILABLE_MESSAGE}; try again`;
  return errorText(error);
}

export async function POST(request: Request): Promise<Response> {
  const foreign = refuseForeign(request);
  if (foreign) return foreign;
  const refused = await refuseAnonymous(request);
  if (refused) return refused;
  const body = await parseJsonBody(request, bodySchema);
  if (!body.ok) return body.response;
  const folders: string[] = [];
  for (const f of body.value.folders) {
    try {
      folders.push(await allowedSyncFolder(f));
    } catch (error) {
      if (error instanceof SyncFolderError) return jsonError(400, error.message, "invalid_input");
      throw error;
    }
  }
  // Every file is checked against the roots again each time it is read (a link may appear later).
  const roots = await allowedRealRoots();
  const watch = body.value.watch === true;
  return ndjsonResponse<SyncStreamEvent>(request, async (send, signal) => {
    let lastProgress = 0;
    const onEvent = (e: SyncEvent) => {
      if (e.type === "progress") {
        const now = Date.now();
        if (now - lastProgress < PROGRESS_MS) return;
        lastProgress = now;
        send(e);
      } else if (e.type === "file") send({ ...e, text: describeOutcome(e.outcome, e.file) });
      else send(e);
    };
    try {
      if (!watch) {
        const summary = await syncFolders(folders, { signal, onEvent, roots });
        send({ type: "run", kind: "initial", counts: summary.counts, watching: false });
        return;
      }
      const watcher = await watchFolders(folders, {
        signal,
        roots,
        onEvent,
        onRun: (summary, kind) => send({ type: "run", kind, counts: summary.counts, watching: true }),
        onError: (error) => send({ type: "error", message: message(error) }),
      });
      await watcher.ready;
      await new Promise<void>((resolve) => {
        if (signal.aborted) resolve();
        else signal.addEventListener("abort", () => resolve(), { once: true });
      });
      await watcher.stop();
    } catch (error) {
      if (!signal.aborted) send({ type: "error", message: message(error) });
    }
  });
}
