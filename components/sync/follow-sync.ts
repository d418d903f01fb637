/**
 * Starts `POST /api/sync` and hands each NDJSON event (lib/types/sync-events.ts) to `onEvent` as
 * it arrives. Resolves when the stream ends; an HTTP refusal becomes one `error` event (its
 * `{ error }` message). Aborting `signal` aborts the request — the server stops the sync and
 * rolls back the file being imported — and rejects with an AbortError.
 */
import type { SyncStreamEvent } from "@/lib/types/sync-events";

export async function followSync(input: { folders: string[]; watch: boolean; signal: AbortSignal; onEvent: (e: SyncStreamEvent) => void }): Promise<void> {
  const response = await fetch("/api/sync", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ folders: input.folders, watch: input.watch }),
    signal: input.signal,
  });
  if (!response.ok || !response.body) {
    const body = (await response.json().catch(() => ({}))) as { error?: string };
    input.onEvent({ type: "error", message: body.error ?? `The server refused the sync (${response.status} ${response.statusText})` });
    return;
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += value;
    for (let nl = buffer.indexOf("\n"); nl !== -1; nl = buffer.indexOf("\n")) {
      const line = buffer.slice(0, nl).trim();
      buffer = buffer.slice(nl + 1);
      if (!line) continue;
      try {
        input.onEvent(JSON.parse(line) as SyncStreamEvent);
      } catch {
        // Not an event line: ignored.
      }
    }
  }
}
