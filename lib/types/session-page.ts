/**
 * What the session page and its JSON routes send the browser instead of whole entries
 * (the light page): the session's meta, its skeleton in wire form, and the context
 * meter's basis. Client-safe (types, and the size above which the skeleton streams).
 */
import type { ContextTokenEstimate } from "@/lib/compaction/tokens";
import type { SessionMeta } from "@/lib/types/session";
import type { SessionEntry } from "@/lib/session/types";

/**
 * What the meter needs of a path, independent of the chat model's window: the context estimate
 * (session-engine.md §4) and whether it is our estimate. Computed where the entries are (the server's skeleton
 * route), so the client needs no message contents to show the meter.
 */
export interface MeterBasis extends ContextTokenEstimate {
  estimated: boolean;
  /** Our estimate of every message of the working context (~4 characters a token), beside the provider's count. */
  estimateAll?: number;
  /** "provider/model" of the reply whose reported usage the figure starts from. */
  reportedBy?: string;
  /** What the pre-prompt compaction check will see (lib/chat-protocol/compaction-forecast.ts). */
  forecast?: CompactionForecast;
}

/** What the pre-prompt compaction check will see of a path (lib/chat-protocol/compaction-forecast.ts). */
export interface CompactionForecast {
  /** The last assistant's reported context less pruning's savings (§13.2 step 9). */
  tokens: number;
  /** What pruning old tool outputs (§8) takes off the reported context before the send. */
  pruneSaved: number;
  /** input + cacheRead of that reply: a silent overflow when above the window (§14). */
  promptTokens: number;
  provider: string;
  model: string;
  /** It ended with stopReason "error" (step 8: no threshold check). */
  error: boolean;
  /** Its error message says the context overflowed (§14). */
  overflowError: boolean;
  /** It is older than the latest compaction on the path (step 6). */
  beforeCompaction: boolean;
}

/** One skeleton row on the wire: its form is defined and encoded in lib/session-view/skeleton-wire.ts. */
export type WireExtra = { k?: string; v?: string; n?: 0 | 1; a?: 0 | 1; f?: string; b?: number; p?: string; l?: string };
export type WireRow =
  | [string, string | 0 | 1, string, string, number, number, number | null]
  | [string, string | 0 | 1, string, string, number, number, number | null, WireExtra];

/** GET /api/sessions/[id]/skeleton[?since=N] and the page's prefetch. */
export interface SkeletonPayload {
  session: SessionMeta;
  /** The session's data version (read model `rev`). */
  rev: number;
  /** Entries in the session (file order) at `rev`. */
  count: number;
  /** `rows` are the entries from index `from` (0: the whole skeleton; > 0: a delta). */
  from: number;
  rows: WireRow[];
  /**
   * The session page of a session too large to embed (PAGE_SKELETON_MAX): `rows` hold only
   * the tail of the current path (root-most first), and the client streams the whole skeleton
   * (`GET …/skeleton?format=ndjson`).
   */
  pending?: true;
  /**
   * With `pending`: user prompts on the current path before the tail's first row, so a map
   * drawn from the tail alone numbers its turns as the whole tree does ("turn 1,204", not "turn 1").
   */
  tailTurnsBefore?: number;
  /** The context meter of the current path (lib/chat-protocol/context-meter `meterBasis`). */
  meter: MeterBasis;
  /** The model the next turn will use (lib/chat/next-model): the picker's value, the meter's window. */
  model?: NextTurnModel;
}

/**
 * The session page's prefetch: a SkeletonPayload whose rows are their JSON text. React's server
 * payload passes a long string through as raw text, where an array of 10k rows is encoded, then
 * parsed with a reviver value by value, once in the server render and again in the browser
 * (the first tree node sooner); the browser parses the text once, natively, when it first
 * decodes the view (lib/query/session.ts).
 */
export interface PagePayload extends Omit<SkeletonPayload, "rows"> {
  /** `JSON.stringify` of the payload's WireRow[]. */
  rowsJson: string;
}

/** A model as the page names it: its ref, id and context window. */
export interface PageModel {
  ref: string;
  /** The model's id ("claude-opus-4-5"), the meter's name for it. */
  id: string;
  provider: string;
  label: string;
  contextWindow: number;
  /** True when Arbor knows nothing about the window and uses the session-engine.md §15 fallback. */
  windowAssumed: boolean;
  offline: boolean;
}

/** The model the session's next turn will use, as the page shows it (docs/ui.md "The session workspace"). */
export interface NextTurnModel extends PageModel {
  /** The user chose the chat model in Arbor (the picker or the session's modelRoles.default). */
  picked?: boolean;
  /**
   * The session's own model — the one its path last used, from the file (session-engine.md §3) —
   * with the window the model catalogue gives it, and whether its provider is configured here.
   * The context meter measures against it unless the user picked a model. Absent when the path
   * names no model.
   */
  session?: PageModel & { available: boolean };
}

/** GET /api/sessions/[id]/entries?ids=… */
export interface EntriesPayload {
  entries: SessionEntry[];
  /** Requested ids that are not in the session. */
  missing: string[];
  /** Requested ids left out to keep the response under its size cap: ask again. */
  deferred: string[];
}

/** GET /api/sessions/[id]/search?q=… */
export interface SearchPayload {
  /** Ids of the entries matching the query (§16.3), file order. */
  ids: string[];
}

/**
 * Sessions of more entries than this come without their skeleton in the page, and a whole
 * refresh of theirs (after a prune) streams it too: its JSON would be parsed in one long task.
 * The page brings the tail of the current path for the chat, and the browser streams the rest
 * (lib/session-view/skeleton-stream.ts).
 */
export const PAGE_SKELETON_MAX = 20_000;
