import "server-only";
/**
 * The mapping from session rows to the plain, serializable shapes the store returns
 * (SessionMeta, SessionSummary: lib/types/session.ts). Dates become ISO strings so results can
 * cross the RSC / JSON boundary unchanged.
 */
import type { SessionHeader } from "@/lib/session/types";
import type { SessionMeta, SessionSummary } from "@/lib/types/session";
import type { Prisma } from "@/generated/prisma/client";
import { toPgText } from "../pg-json";

export type { SessionMeta, SessionSummary } from "@/lib/types/session";

/** The fields of a session row that `SessionMeta` is built from, as the typed client selects them. */
export const SESSION_SELECT = {
  id: true,
  title: true,
  header: true,
  cwd: true,
  parentSession: true,
  sourceFileName: true,
  leafId: true,
  entryCount: true,
  model: true,
  settings: true,
  createdAt: true,
  updatedAt: true,
  lastActivityAt: true,
  deletedAt: true,
} as const satisfies Prisma.SessionSelect;

/** The `SessionSummary` fields of a session list row. */
export const SESSION_SUMMARY_SELECT = {
  id: true,
  title: true,
  entryCount: true,
  model: true,
  createdAt: true,
  lastActivityAt: true,
  deletedAt: true,
} as const satisfies Prisma.SessionSelect;

/** A session row with the fields of `SESSION_SELECT`. */
export type SessionRow = Prisma.SessionGetPayload<{ select: typeof SESSION_SELECT }>;
/** The columns a session list row and `SessionMeta` share (the `SessionSummary` fields). */
export type SessionSummaryRow = Prisma.SessionGetPayload<{ select: typeof SESSION_SUMMARY_SELECT }>;

/**
 * The same fields for raw SQL (bulk import, the read model, the search list), aliased to the
 * client's field names so one mapper serves both: `SELECT ${SESSION_COLUMNS} FROM sessions`.
 */
export const SESSION_COLUMNS =
  'id, title, header, cwd, parent_session AS "parentSession", source_file_name AS "sourceFileName", leaf_id AS "leafId", entry_count AS "entryCount", model, settings, created_at AS "createdAt", updated_at AS "updatedAt", last_activity_at AS "lastActivityAt", deleted_at AS "deletedAt"';

/** The `SessionSummary` fields of a row (without `match`), timestamps as ISO strings. */
export function toSessionSummary(r: SessionSummaryRow): SessionSummary {
  return {
    id: r.id,
    title: r.title,
    entryCount: r.entryCount,
    model: r.model,
    createdAt: r.createdAt.toISOString(),
    lastActivityAt: r.lastActivityAt.toISOString(),
    deletedAt: r.deletedAt ? r.deletedAt.toISOString() : null,
  };
}

export function toSessionMeta(r: SessionRow): SessionMeta {
  return {
    ...toSessionSummary(r),
    header: r.header as unknown as SessionHeader,
    cwd: r.cwd,
    parentSession: r.parentSession,
    sourceFileName: r.sourceFileName,
    leafId: r.leafId,
    settings: r.settings ?? null,
    updatedAt: r.updatedAt.toISOString(),
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
