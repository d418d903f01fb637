/**
 * Reads an AI SDK UI message stream response chunk by chunk with the SDK's own parser
 * (`parseJsonEventStream` + `uiMessageChunkSchema`, what `useChat` uses), so the wire format has
 * one reader. Client-safe; used by the compaction and navigation dialogs, which need the data
 * parts but no chat state. A chunk that is not valid JSON or not a UI message chunk is skipped:
 * the stream's own error parts report real failures. `[DONE]` carries no chunk.
 */
import { parseJsonEventStream, uiMessageChunkSchema } from "ai";

export interface UIStreamChunk {
  type: string;
  [key: string]: unknown;
}

export async function* readUIStream(res: Response): AsyncGenerator<UIStreamChunk> {
  if (!res.body) return;
  const reader = parseJsonEventStream({ stream: res.body, schema: uiMessageChunkSchema }).getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      if (value.success) yield value.value as UIStreamChunk;
    }
  } finally {
    reader.releaseLock();
  }
}
