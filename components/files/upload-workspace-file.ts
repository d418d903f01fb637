/**
 * Uploads one file into a session's workspace (`POST /api/sessions/[id]/files?path=`, raw body).
 *
 * XMLHttpRequest rather than fetch because it reports upload progress (a streamed fetch request
 * body would need HTTP/2). The promise resolves with `{ ok: true, path, size }` or with
 * `{ ok: false, message }` carrying the server's words ("Path … is outside the workspace",
 * "… over the 50 MB limit") or a plain network message; it rejects only with an AbortError when
 * `signal` aborts (the server then discards the partial upload).
 */
import { errorOfBody } from "@/lib/text/error-text";
import { uploadUrl } from "@/lib/query/files";

export type UploadOutcome = { ok: true; path: string; size: number } | { ok: false; message: string };

export interface UploadWorkspaceFileOptions {
  sessionId: string;
  file: File;
  /** Workspace-relative target; the file's name by default. */
  path?: string;
  signal: AbortSignal;
  onProgress?: (sent: number, total: number) => void;
}

function serverMessage(xhr: XMLHttpRequest, name: string): string {
  try {
    const error = errorOfBody(JSON.parse(xhr.responseText));
    if (error) return error;
  } catch {
    // Not JSON (a proxy's error page): fall back to the status line.
  }
  return `${name}: the server refused the file (${xhr.status} ${xhr.statusText})`.trim();
}

export function uploadWorkspaceFile(opts: UploadWorkspaceFileOptions): Promise<UploadOutcome> {
  const { file, signal } = opts;
  const target = opts.path ?? file.name;
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(new DOMException("Upload cancelled", "AbortError"));
      return;
    }
    const xhr = new XMLHttpRequest();
    const onAbort = () => xhr.abort();
    signal.addEventListener("abort", onAbort, { once: true });
    const done = () => signal.removeEventListener("abort", onAbort);

    xhr.upload.onprogress = (e) => opts.onProgress?.(e.loaded, e.lengthComputable ? e.total : file.size);
    xhr.onload = () => {
      done();
      if (xhr.status !== 201) {
        resolve({ ok: false, message: serverMessage(xhr, target) });
        return;
      }
      try {
        const body = JSON.parse(xhr.responseText) as { file: { path: string; size: number } };
        resolve({ ok: true, path: body.file.path, size: body.file.size });
      } catch {
        resolve({ ok: false, message: `${target}: the server's answer could not be read; refresh to check the file` });
      }
    };
    xhr.onerror = () => {
      done();
      resolve({ ok: false, message: `${target}: could not reach Arbor's server; check that it is running and try again.` });
    };
    xhr.onabort = () => {
      done();
      reject(new DOMException("Upload cancelled", "AbortError"));
    };
    xhr.open("POST", uploadUrl(opts.sessionId, target));
    xhr.setRequestHeader("content-type", "application/octet-stream");
    xhr.send(file);
  });
}
