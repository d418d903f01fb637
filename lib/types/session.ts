/**
 * The session shapes the views use (the list, its pages, a session's metadata), shared by the
 * store that builds them (lib/db) and the components, queries and routes that show them.
 * Types only, browser-safe: views import these, never lib/db.
 */
import type { SessionHeader } from "@/lib/session/types";

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
  /** What the session's recorded model calls cost (the usage ledger's counted rows); absent when none. */
  usage?: { costMicros: number; tokens: number; unpricedTokens: number };
  /** For searches: where the words were found in the session's entries (absent for title-only matches). */
  match?: { entryId: string; snippet: string };
  /** Secrets found in the session's entries (docs/secrets.md); absent when none. */
  secrets?: number;
  /** In the list: the format of the file it came from ("claude-code"); absent for a session made in Arbor. */
  agent?: string;
  /** In the list: its cwd ("" when none). */
  project?: string;
}

/** Everything about a session except its entries. */
export interface SessionMeta extends Omit<SessionSummary, "match" | "secrets"> {
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

/** A value of the session list's filters with its number of live sessions (GET /api/sessions/facets). */
export interface FacetCount {
  value: string;
  sessions: number;
}

/** The session list's groups: live sessions per agent (format), project (cwd; "" for none) and model, most first. */
export interface SessionFacets {
  total: number;
  agents: FacetCount[];
  projects: FacetCount[];
  models: FacetCount[];
}

/** One page of the session list; `nextCursor` is opaque, null on the last page. */
export interface SessionPage {
  sessions: SessionSummary[];
  nextCursor: string | null;
}

/** A session in the Trash (soft-deleted): when it was deleted and when it goes for good. */
export interface TrashedSession extends SessionSummary {
  deletedAt: string;
  /** When it is deleted for good (ISO). */
  purgeAt: string;
}
