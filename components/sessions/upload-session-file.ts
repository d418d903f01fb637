/**
 * Uploads one session file to `POST /api/import` and follows its NDJSON events.
 *
 * XMLHttpRequest rather than fetch: it reports upload progress, and its `responseText` grows
 * while the response streams, so the server's progress events arrive during the import.
 * (Streaming a fetch *request* body needs HTTP/2, so fetch could not report bytes sent.)
 * The promise settles with the final `done` / `error` event; HTTP and network failures become
 * `error` events too. Aborting `signal` aborts the request (the server rolls back) and rejects
 * with an AbortError.
 */
import { errorOfBody } from "@/lib/text/error-text";
import { DEFAULT_MAX_IMPORT_BYTES } from "@/lib/import-limits";
import type { ImportDoneEvent, ImportErrorEvent, ImportEvent, ImportProgressEvent } from "@/lib/types/import-events";

/** The server's import limit, checked before uploading (see lib/import-limits.ts). */
export const IMPORT_LIMIT_BYTES = DEFAULT_MAX_IMPORT_BYTES;

export interface UploadOptions {
  file: File;
  asCopy?: boolean;
  signal: AbortSignal;
  onUploadProgress?: (sent: number, total: number) => void;
  onProgress?: (event: ImportProgressEvent) => void;
}

function importUrl(file: File, asCopy: boolean): string {
  const params = new URLSearchParams({ fileName: file.name, asCopy: asCopy ? "1" : "0" });
  return `/api/import?${params}`;
}

function failure(message: string): ImportErrorEvent {
  return { type: "error", code: "failed", message };
}

export function uploadSessionFile(opts: UploadOptions): Promise<ImportDoneEvent | ImportErrorEvent> {
  const { file, signal } = opts;
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(new DOMException("Import cancelled", "AbortError"));
      return;
    }
    const xhr = new XMLHttpRequest();
    let read = 0;
    let final: ImportDoneEvent | ImportErrorEvent | undefined;

    /** Handles every complete line received since the last call. */
    const drain = (all: boolean) => {
      const text = xhr.responseText;
      let nl = text.indexOf("\n", read);
      while (nl !== -1 || (all && read < text.length)) {
        const end = nl === -1 ? text.length : nl;
        const line = text.slice(read, end).trim();
        read = end + 1;
        if (line) {
          try {
            const event = JSON.parse(line) as ImportEvent;
            if (event.type === "progress") opts.onProgress?.(event);
            else final = event;
          } catch {
            // Not an event line (a proxy's error page, say): reported below if nothing else is.
          }
        }
        nl = text.indexOf("\n", read);
      }
    };

    const onAbort = () => xhr.abort();
    signal.addEventListener("abort", onAbort, { once: true });
    const finish = () => signal.removeEventListener("abort", onAbort);

    xhr.upload.onprogress = (e) => opts.onUploadProgress?.(e.loaded, e.lengthComputable ? e.total : file.size);
    xhr.onprogress = () => {
      if (xhr.status === 200) drain(false);
    };
    xhr.onload = () => {
      finish();
      if (xhr.status !== 200) {
        let message = `${file.name}: the server refused the file (${xhr.status} ${xhr.statusText})`;
        try {
          message = errorOfBody(JSON.parse(xhr.responseText)) ?? message;
        } catch {
          // Not JSON: keep the status line.
        }
        resolve({ type: "error", code: xhr.status === 413 ? "too_large" : "failed", message });
        return;
      }
      drain(true);
      resolve(final ?? failure(`${file.name}: the server stopped before the import finished; nothing was saved. Try again.`));
    };
    xhr.onerror = () => {
      finish();
      resolve(failure(`${file.name}: could not reach Arbor's server; check that it is running and try again.`));
    };
    xhr.onabort = () => {
      finish();
      reject(new DOMException("Import cancelled", "AbortError"));
    };

    xhr.open("POST", importUrl(file, opts.asCopy ?? false));
    xhr.setRequestHeader("content-type", "application/octet-stream");
    xhr.send(file);
  });
}
