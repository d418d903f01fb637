import "server-only";
/**
 * The plain, serializable shapes the store returns for sessions, and the mapping from rows.
 * Dates are ISO strings so results can cross the RSC / JSON boundary unchanged.
 */
import type { SessionHeader } from "@/lib/session/types";
import { toPgText } from "./pg-json";

/** One row of the session list. */
export interface SessionSummary {
  id: string;
  /** Display title (given, header title, pi session name or first user message); null if none. */
  title: string | null;
  entryCount: number;
  /** Last model used, "provider/modelId". */
  model: string | null;
  createdAt: string;
  lastActivityAt: string;
  /** Set when the session is in the trash (only listed with `includeDeleted`). */
  deletedAt: string | null;
  /** For searches: where the words were found in the session's entries (absent for title-only matches). */
  match?: { entryId: string; snippet: string };
}

/** Everything about a session except its entries. */
export interface SessionMeta extends Omit<SessionSummary, "match"> {
  header: SessionHeader;
  cwd: string;
  parentSession: string | null;
  sourceFileName: string | null;
  /** The persisted current leaf; null before the first entry or after a reset. */
  leafId: string | null;
  /** Partial settings override for this session. */
  settings: unknown;
  updatedAt: string;
}

/** Columns selected by `SESSION_COLUMNS`, as the raw query returns them. */
export interface SessionRow {
  id: string;
  title: string | null;
  header: unknown;
  cwd: string;
  parent_session: string | null;
  source_file_name: string | null;
  leaf_id: string | null;
  entry_count: number;
  model: string | null;
  settings: unknown;
  created_at: Date;
  updated_at: Date;
  last_activity_at: Date;
  deleted_at: Date | null;
}

export const SESSION_COLUMNS =
  "id, title, header, cwd, parent_session, source_file_name, leaf_id, entry_count, model, settings, created_at, updated_at, last_activity_at, deleted_at";

/** The columns a session list row and `SessionMeta` share (the `SessionSummary` fields). */
export type SessionSummaryRow = Pick<SessionRow, "id" | "title" | "entry_count" | "model" | "created_at" | "last_activity_at" | "deleted_at">;

/** The `SessionSummary` fields of a row (without `match`), timestamps as ISO strings. */
export function toSessionSummary(r: SessionSummaryRow): SessionSummary {
  return {
    id: r.id,
    title: r.title,
    entryCount: r.entry_count,
    model: r.model,
    createdAt: r.created_at.toISOString(),
    lastActivityAt: r.last_activity_at.toISOString(),
    deletedAt: r.deleted_at ? r.deleted_at.toISOString() : null,
  };
}

export function toSessionMeta(r: SessionRow): SessionMeta {
  return {
    ...toSessionSummary(r),
    header: r.header as SessionHeader,
    cwd: r.cwd,
    parentSession: r.parent_session,
    sourceFileName: r.source_file_name,
    leafId: r.leaf_id,
    settings: r.settings ?? null,
    updatedAt: r.updated_at.toISOString(),
  };
}

/** A title as stored: whitespace collapsed, storable characters only (toPgText), at most TITLE_LIMIT characters; undefined if empty. */
export const TITLE_LIMIT = 200;
export function normalizeTitle(title: string | null | undefined): string | undefined {
  if (typeof title !== "string") return undefined;
  const flat = toPgText(title).replace(/\s+/g, " ").trim();
  if (flat === "") return undefined;
  if (flat.length <= TITLE_LIMIT) return flat;
  let end = TITLE_LIMIT - 1;
  const code = flat.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1; // never split a surrogate pair
  return `${flat.slice(0, end).trimEnd()}…`;
}
