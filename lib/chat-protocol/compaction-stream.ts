/**
 * Runs a compaction route from the browser (manual compaction, "Compact again"): POSTs the body,
 * then reads the UI message stream, reporting the summary as it streams (`onDelta`) and each
 * saved entry (`onEntry`). Resolves with the failure message the stream ended with (a non-2xx
 * answer, the compaction's own error, or a `data-error` part), else undefined. Aborting `signal`
 * rejects, as fetch does. Client-safe.
 */
import type { SessionEntry } from "@/lib/session/types";
import { readErrorMessage } from "@/lib/text/error-text";
import { readUIStream } from "./read-ui-stream";
import type { ArborDataParts } from "./ui-types";

export interface CompactionStreamHandlers {
  signal: AbortSignal;
  onDelta?: (text: string) => void;
  onEntry?: (entry: SessionEntry, leafId: string | null) => void;
}

export async function runCompactionStream(url: string, body: object, h: CompactionStreamHandlers): Promise<string | undefined> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body), signal: h.signal });
  if (!res.ok) return readErrorMessage(res);
  let failed: string | undefined;
  for await (const chunk of readUIStream(res)) {
    if (chunk.type === "data-compaction") {
      const d = chunk.data as ArborDataParts["compaction"];
      if (d.phase === "delta") h.onDelta?.(d.delta);
      if (d.phase === "end" && d.errorMessage) failed = d.errorMessage;
    } else if (chunk.type === "data-entry") {
      const d = chunk.data as ArborDataParts["entry"];
      h.onEntry?.(d.entry, d.leafId);
    } else if (chunk.type === "data-error") {
      failed = (chunk.data as ArborDataParts["error"]).message;
    }
  }
  return failed;
}
