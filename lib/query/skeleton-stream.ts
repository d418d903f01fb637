/**
 * Streams the whole skeleton of a large session (`GET /api/sessions/[id]/skeleton?format=ndjson`,
 * lib/session-view/skeleton-stream.ts) into a cached value, without a long task: lines are parsed
 * and decoded as they arrive, and the work gives the event loop back every few ms. The decoded
 * view (rows, ids, labels, path) is built along the way and seeded for the returned value, so
 * adopting it costs no decoding pass. Progress is rows decoded of the header's count; the
 * signal cancels. Browser-safe.
 *
 * The rows come in parts of PART_ROWS (`from`/`to`), each its own response, the next requested
 * while the one before is read: the browser finishes a response in one task that grows with its
 * size (measured: ~250 ms for the 11 MB of a 100k-entry session, ~60 ms for a fifth of it). The
 * first part's header is the value's (its count bounds every part); entries appended meanwhile
 * come after, as a delta (components/session/use-streamed-skeleton.ts).
 */
import type { SkeletonPayload } from "@/lib/types/session-page";
import { LineSplitter, parseStreamBlock, parseStreamHeader, SkeletonStreamError } from "@/lib/session-view/skeleton-stream";
import type { WireRow } from "@/lib/types/session-page";
import { nextTask } from "@/lib/session/stepwise";
import { readErrorMessage } from "@/lib/text/error-text";
import { type DecodedSession, type SessionData, seedSessionView, ViewBuilder } from "./session";

/** Longest run of parsing and decoding per task, in ms. */
const BUDGET_MS = 10;

export interface StreamOptions {
  signal?: AbortSignal;
  /** Share of the entries decoded so far (0–1). */
  onProgress?: (share: number) => void;
}

/** Rows per response (about 2 MB of lines). */
export const PART_ROWS = 20_000;

export const skeletonStreamUrl = (id: string, part?: { from: number; to: number }) =>
  `/api/sessions/${encodeURIComponent(id)}/skeleton?format=ndjson${part ? `&from=${part.from}&to=${part.to}` : ""}`;

export interface Streamed {
  data: SessionData;
  /** The decoded view of `data`, seeded for it (seed it again for an equal copy: `seedSessionView`). */
  view: DecodedSession;
}

type Header = Omit<SkeletonPayload, "rows">;

export async function streamSkeleton(id: string, opts: StreamOptions = {}): Promise<Streamed> {
  const { signal } = opts;
  const request = async (part: { from: number; to: number }) => {
    const res = await fetch(skeletonStreamUrl(id, part), { headers: { accept: "application/x-ndjson" }, signal });
    if (!res.ok) throw new Error(await readErrorMessage(res));
    if (!res.body) throw new Error("The session's tree could not be read (an empty response)");
    return res;
  };
  const chunks: WireRow[][] = [];
  const builder = new ViewBuilder();
  let first: Header | undefined;
  let sliceEnd = performance.now() + BUDGET_MS;
  const progress = () => opts.onProgress?.(first ? Math.min(1, builder.rows.length / Math.max(1, first.count)) : 0);

  /** Reads one part into `chunks` and the builder; `onHeader` runs once its header is read. */
  const readPart = async (res: Response, part: { from: number; to: number }, onHeader: (h: Header) => void) => {
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    const splitter = new LineSplitter();
    let header: Header | undefined;
    const before = builder.rows.length;
    let line = 0;
    const take = (text: string) => {
      line++;
      if (line === 1) {
        header = parseStreamHeader<Header>(text);
        if (header.from !== part.from) throw new SkeletonStreamError(1, `the rows start at ${header.from}, not at ${part.from}`);
        if (first && header.count < part.to) throw new SkeletonStreamError(1, `the session has ${header.count} entries, fewer than ${part.to}`);
        onHeader(header);
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
          progress();
          await nextTask();
          signal?.throwIfAborted();
          sliceEnd = performance.now() + BUDGET_MS;
        }
      }
    }
    splitter.end(line + 1);
    if (!header) throw new SkeletonStreamError(1, "the response was empty");
    const want = Math.min(part.to, header.count) - part.from;
    if (builder.rows.length - before !== want) throw new SkeletonStreamError(line, `${builder.rows.length - before} of ${want} entries arrived`);
  };

  let part = { from: 0, to: PART_ROWS };
  let pending = request(part);
  let next: { part: { from: number; to: number }; res: Promise<Response> } | undefined;
  for (;;) {
    // The next part is asked for as soon as this one's header says how many rows there are.
    await readPart(await pending, part, (h) => {
      first ??= h;
      if (part.to < first.count) {
        const following = { from: part.to, to: Math.min(part.to + PART_ROWS, first.count) };
        const res = request(following);
        res.catch(() => {}); // read (and its failure reported) when its turn comes
        next = { part: following, res };
      }
    });
    if (!next) break;
    part = next.part;
    pending = next.res;
    next = undefined;
  }
  if (!first) throw new SkeletonStreamError(1, "the response was empty");
  if (builder.rows.length !== first.count) throw new SkeletonStreamError(1, `${builder.rows.length} of ${first.count} entries arrived`);
  progress();
  await nextTask();
  signal?.throwIfAborted();
  const data: SessionData = {
    session: first.session,
    rev: first.rev,
    count: first.count,
    chunks,
    live: [],
    meter: first.meter,
    model: first.model,
  };
  const view = builder.finish(first.session.leafId);
  seedSessionView(data, view);
  return { data, view };
}
