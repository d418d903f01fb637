import "server-only";
/**
 * The session list's groups (docs/ui.md "Pages", `/`): the live sessions' projects (cwd), models
 * and agents (the format of the file a session came from), each with its number of sessions,
 * most sessions first. Counted on partial indexes of live sessions (migration
 * 20270129000000_session_list_facets), one statement per kind, run together; `origins` gives the
 * same two facts for the sessions of one list page (one statement on their primary keys).
 */
import type { FormatId } from "@/lib/formats/types";
import type { FacetCount, SessionFacets } from "@/lib/types/session";
import { getDb } from "../client";

export type { FacetCount, SessionFacets } from "@/lib/types/session";

/** Values listed per kind at most (the most sessions first); a filter still takes any value. */
export const MAX_FACET_VALUES = 300;

type CountRow = { value: string; n: bigint };

const counts = (rows: CountRow[]): FacetCount[] => rows.map((r) => ({ value: r.value, sessions: Number(r.n) }));

export async function sessionFacets(): Promise<SessionFacets> {
  const db = getDb();
  const [total, agents, projects, models] = await Promise.all([
    db.$queryRawUnsafe<{ n: bigint }[]>(`SELECT count(*) AS n FROM sessions WHERE deleted_at IS NULL`),
    db.$queryRawUnsafe<CountRow[]>(
      `SELECT src.format AS value, count(*) AS n FROM session_sources src JOIN sessions s ON s.id = src.session_id
       WHERE s.deleted_at IS NULL GROUP BY src.format ORDER BY n DESC, value`,
    ),
    db.$queryRawUnsafe<CountRow[]>(
      `SELECT cwd AS value, count(*) AS n FROM sessions WHERE deleted_at IS NULL GROUP BY cwd ORDER BY n DESC, value LIMIT ${MAX_FACET_VALUES}`,
    ),
    db.$queryRawUnsafe<CountRow[]>(
      `SELECT model AS value, count(*) AS n FROM sessions WHERE deleted_at IS NULL AND model IS NOT NULL
       GROUP BY model ORDER BY n DESC, value LIMIT ${MAX_FACET_VALUES}`,
    ),
  ]);
  return { total: Number(total[0]?.n ?? 0), agents: counts(agents), projects: counts(projects), models: counts(models) };
}

export interface SessionOrigin {
  /** The format of the file it was imported or synced from; absent for a session made in Arbor. */
  agent?: FormatId;
  /** Its cwd; "" when none. */
  project: string;
}

/** Each listed session's agent and project, by id. */
export async function sessionOrigins(sessionIds: readonly string[]): Promise<Map<string, SessionOrigin>> {
  const out = new Map<string, SessionOrigin>();
  if (sessionIds.length === 0) return out;
  const rows = await getDb().$queryRawUnsafe<{ id: string; cwd: string; format: string | null }[]>(
    `SELECT s.id, s.cwd, src.format FROM sessions s LEFT JOIN session_sources src ON src.session_id = s.id WHERE s.id = ANY($1::text[])`,
    [...sessionIds],
  );
  for (const r of rows) out.set(r.id, { project: r.cwd, ...(r.format ? { agent: r.format as FormatId } : {}) });
  return out;
}
