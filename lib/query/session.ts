/**
 * The session's skeleton in the TanStack cache (conventions rule 7), the client's source of
 * truth for the tree, the chat's page plan and the inspector's selection. Contents of entries
 * are separate per-entry queries (entries.ts).
 *
 * The cached value keeps the wire chunks as the server sent them (the page's prefetch, as its
 * JSON text, then one chunk per `?since=` delta) plus rows the client appended itself from streamed entries
 * (`live`, replaced by the server's rows on the next refresh). `sessionView(data)` decodes it,
 * memoised per cached value.
 */
import { queryOptions } from "@tanstack/react-query";
import type { MeterBasis } from "@/lib/types/session-page";
import type { SessionMeta } from "@/lib/types/session";
import { decodeRows } from "@/lib/session-view/skeleton-wire";
import type { WireRow } from "@/lib/types/session-page";
import type { SkeletonEntry } from "@/lib/session-view/tree-skeleton";
import { skeletonLabels } from "@/lib/session-view/skeleton-resolve";
import { skeletonPath } from "@/lib/session-view/tree-skeleton-view";
import { type NextTurnModel, PAGE_SKELETON_MAX, type PagePayload, type SkeletonPayload } from "@/lib/types/session-page";
import { getQueryClient } from "./client";
import { getJson, keys } from "./keys";
import { streamSkeleton } from "./skeleton-stream";

/** Wire rows, or their JSON text as the page's prefetch carries them (PagePayload), parsed on first decode. */
export type SkeletonChunk = WireRow[] | { json: string };

export interface SessionData {
  session: SessionMeta;
  rev: number;
  /** Entries covered by `chunks` (the server's count at the last refresh). */
  count: number;
  chunks: SkeletonChunk[];
  /** Rows added from streamed entries since the last refresh (not yet in `chunks`). */
  live: SkeletonEntry[];
  meter: MeterBasis;
  /** The model the next turn will use (the server's answer at the last refresh). */
  model?: NextTurnModel | undefined;
  /**
   * The page of a large session (SkeletonPayload `pending`): the chunks hold the tail of the
   * current path only, until the whole skeleton has streamed in (skeleton-stream.ts).
   */
  pending?: boolean;
  /** With `pending`: user prompts on the current path before the tail (SkeletonPayload `tailTurnsBefore`). */
  tailTurnsBefore?: number;
}

/** A full payload, or a delta merged onto `prev`. */
export function mergePayload(prev: SessionData | undefined, p: SkeletonPayload): SessionData {
  const whole = p.from === 0 || !prev;
  const chunks = whole ? [p.rows] : p.rows.length > 0 ? [...prev.chunks, p.rows] : prev.chunks;
  // A delta onto a page still streaming its skeleton stays pending: the stream replaces it all.
  const pending = whole ? p.pending === true : prev.pending === true;
  const tailTurnsBefore = whole ? p.tailTurnsBefore : prev.tailTurnsBefore;
  return {
    session: p.session,
    rev: p.rev,
    count: p.count,
    chunks,
    live: [],
    meter: p.meter,
    model: p.model ?? prev?.model,
    ...(pending ? { pending, ...(tailTurnsBefore !== undefined ? { tailTurnsBefore } : {}) } : {}),
  };
}

/** The cached value of the session page's prefetch. */
export function pageData(p: PagePayload): SessionData {
  const { rowsJson, ...rest } = p;
  return { ...mergePayload(undefined, { ...rest, rows: [] }), chunks: [{ json: rowsJson }] };
}

const url = (id: string, since: number) => `/api/sessions/${encodeURIComponent(id)}/skeleton${since > 0 ? `?since=${since}` : ""}`;

/**
 * Refetches ask only for what was appended since the cached count (`?since=`); `full` (after
 * pruning, which changes entries in place) asks for everything, streamed for a large session
 * (refreshPlan).
 */
export function sessionDataOptions(id: string) {
  return queryOptions({
    queryKey: keys.session(id),
    queryFn: async ({ signal }): Promise<SessionData> => {
      const prev = getQueryClient().getQueryData<SessionData>(keys.session(id));
      const plan = refreshPlan(prev, fullRefresh.has(id));
      fullRefresh.delete(id);
      // The previous value stays on screen meanwhile; the streamed one comes with its view decoded.
      if (plan.kind === "stream") return (await streamSkeleton(id, { signal })).data;
      return mergePayload(prev, await getJson<SkeletonPayload>(url(id, plan.since), { signal }));
    },
    staleTime: 5_000,
  });
}

const fullRefresh = new Set<string>();

export type RefreshPlan = { kind: "json"; since: number } | { kind: "stream" };

/**
 * How the next refresh reads the skeleton: only what was appended since the cached count; the
 * whole of it when asked (`full`: entries changed in place) or when nothing is cached; and the
 * whole of a session over PAGE_SKELETON_MAX entries as a stream decoded in slices, as its page
 * does, never as one JSON parsed in one long task.
 */
export function refreshPlan(prev: SessionData | undefined, full: boolean): RefreshPlan {
  if (prev && !full) return { kind: "json", since: prev.count };
  if (prev && prev.count > PAGE_SKELETON_MAX) return { kind: "stream" };
  return { kind: "json", since: 0 };
}

/** The next refresh of this session's skeleton reloads all of it (entries changed in place). */
export function requestFullRefresh(id: string): void {
  fullRefresh.add(id);
}

export interface DecodedSession {
  rows: SkeletonEntry[];
  byId: Map<string, SkeletonEntry>;
  labels: Map<string, string>;
  /** Root → current leaf. */
  path: SkeletonEntry[];
}

const chunkCache = new WeakMap<SkeletonChunk, SkeletonEntry[]>();
const viewCache = new WeakMap<SessionData, DecodedSession>();

/** The rows of one chunk, decoded once (memoised per chunk). */
export function decodeChunk(chunk: SkeletonChunk): SkeletonEntry[] {
  let rows = chunkCache.get(chunk);
  if (!rows) {
    rows = decodeRows(Array.isArray(chunk) ? chunk : (JSON.parse(chunk.json) as WireRow[]));
    chunkCache.set(chunk, rows);
  }
  return rows;
}

/** Gives a cached value the decoded view built while it streamed in, so sessionView need not build it again. */
export function seedSessionView(data: SessionData, view: DecodedSession): void {
  viewCache.set(data, view);
}

/** The decoded skeleton of a cached value (memoised per value; chunks decode once each). */
export function sessionView(data: SessionData): DecodedSession {
  let view = viewCache.get(data);
  if (view) return view;
  const builder = new ViewBuilder();
  for (const chunk of data.chunks) builder.addChunk(chunk);
  for (const s of data.live) builder.add(s);
  view = builder.finish(data.session.leafId);
  viewCache.set(data, view);
  return view;
}

/** A decoded view being built: rows in order, the first row of each id kept, with their index. */
export class ViewBuilder {
  readonly rows: SkeletonEntry[] = [];
  readonly byId = new Map<string, SkeletonEntry>();

  add(s: SkeletonEntry): void {
    if (this.byId.has(s.id)) return;
    this.byId.set(s.id, s);
    this.rows.push(s);
  }

  addChunk(chunk: SkeletonChunk): void {
    for (const s of decodeChunk(chunk)) this.add(s);
  }

  finish(leafId: string | null): DecodedSession {
    return { rows: this.rows, byId: this.byId, labels: skeletonLabels(this.rows), path: skeletonPath(this.byId, leafId) };
  }
}
