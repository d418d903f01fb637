/**
 * Reads an AI SDK UI message stream response (server-sent events, one JSON chunk per `data:`
 * line, ending with `[DONE]`) chunk by chunk. Client-safe; used by the compaction and navigation
 * dialogs, which need the data parts but no chat state.
 */
export interface UIStreamChunk {
  type: string;
  [key: string]: unknown;
}

export async function* readUIStream(res: Response): AsyncGenerator<UIStreamChunk> {
  if (!res.body) return;
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (value) buffer += value;
    let cut = buffer.indexOf("\n\n");
    while (cut >= 0) {
      const event = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      for (const line of event.split("\n")) {
        if (!line.startsWith("data:")) continue;
        const payload = line.slice(5).trim();
        if (payload === "[DONE]") return;
        try {
          yield JSON.parse(payload) as UIStreamChunk;
        } catch {
          // A malformed chunk is skipped; the stream's own error parts report real failures.
        }
      }
      cut = buffer.indexOf("\n\n");
    }
    if (done) return;
  }
}

/** Reads an error body of a failed JSON request as a sentence. */
export async function errorText(res: Response): Promise<string> {
  const body = (await res.json().catch(() => null)) as { error?: unknown; message?: unknown } | null;
  const msg = typeof body?.error === "string" ? body.error : typeof body?.message === "string" ? body.message : undefined;
  return msg ?? `${res.status} ${res.statusText}`;
}
