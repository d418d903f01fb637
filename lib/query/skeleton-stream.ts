/**
 * Streams the whole skeleton of a large session (`GET /api/sessions/[id]/skeleton?format=ndjson`,
 * lib/session/skeleton-stream.ts) into a cached value, without a long task: lines are parsed
 * and decoded as they arrive, and the work gives the event loop back every few ms. The decoded
 * view (rows, ids, labels, path) is built along the way and seeded for the returned value, so
 * adopting it costs no decoding pass. Progress is rows decoded of the header's count; the
 * signal cancels. Browser-safe.
 */
import type { SkeletonPayload } from "@/lib/session-view/types";
import { LineSplitter, parseStreamBlock, parseStreamHeader, SkeletonStreamError } from "@/lib/session/skeleton-stream";
import type { WireRow } from "@/lib/session/skeleton-wire";
import { nextTask } from "@/lib/session/stepwise";
import { readErrorMessage } from "@/lib/http/json-error";
import { type DecodedSession, type SessionData, seedSessionView, ViewBuilder } from "./session";

/** Longest run of parsing and decoding per task, in ms. */
const BUDGET_MS = 10;

export interface StreamOptions {
  signal?: AbortSignal;
  /** Share of the entries decoded so far (0–1). */
  onProgress?: (share: number) => void;
}

export const skeletonStreamUrl = (id: string) => `/api/sessions/${encodeURIComponent(id)}/skeleton?format=ndjson`;

export interface Streamed {
  data: SessionData;
  /** The decoded view of `data`, seeded for it (seed it again for an equal copy: `seedSessionView`). */
  view: DecodedSession;
}

export async function streamSkeleton(id: string, opts: StreamOptions = {}): Promise<Streamed> {
  const { signal } = opts;
  const res = await fetch(skeletonStreamUrl(id), { headers: { accept: "application/x-ndjson" }, signal });
  if (!res.ok) throw new Error(await readErrorMessage(res));
  if (!res.body) throw new Error("The session's tree could not be read (an empty response)");
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  const splitter = new LineSplitter();
  let header: Omit<SkeletonPayload, "rows"> | undefined;
  const chunks: WireRow[][] = [];
  const builder = new ViewBuilder();
  let line = 0;
  let sliceEnd = performance.now() + BUDGET_MS;

  const take = (text: string) => {
    line++;
    if (line === 1) {
      header = parseStreamHeader<Omit<SkeletonPayload, "rows">>(text);
      return;
    }
    const block = parseStreamBlock(text, line);
    chunks.push(block);
    builder.addChunk(block);
  };

  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    for (const text of splitter.push(value)) {
      if (text === "") continue;
      take(text);
      if (performance.now() >= sliceEnd) {
        if (header) opts.onProgress?.(Math.min(1, builder.rows.length / Math.max(1, header.count)));
        await nextTask();
        signal?.throwIfAborted();
        sliceEnd = performance.now() + BUDGET_MS;
      }
    }
  }
  splitter.end(line + 1);
  if (!header) throw new SkeletonStreamError(1, "the response was empty");
  if (builder.rows.length !== header.count) throw new SkeletonStreamError(line, `${builder.rows.length} of ${header.count} entries arrived`);
  opts.onProgress?.(1);
  await nextTask();
  signal?.throwIfAborted();
  const data: SessionData = {
    session: header.session,
    rev: header.rev,
    count: header.count,
    chunks,
    live: [],
    meter: header.meter,
    model: header.model,
  };
  const view = builder.finish(header.session.leafId);
  seedSessionView(data, view);
  return { data, view };
}
