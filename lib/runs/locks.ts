import "server-only";
/**
 * Session run slots across processes: PostgreSQL session-level advisory locks held on the
 * process's run-registry connection (channel.ts), so two app processes on one database
 * cannot run two operations in one session, and a process that dies frees its sessions at once.
 *
 * Keys (two-int form, so they never meet other advisory-lock users such as `prisma migrate`):
 * - the slot: (SLOT_SPACE, hashtext(sessionId));
 * - what runs in it: (KIND_SPACE + index of the kind, hashtext(sessionId)), taken together
 *   with the slot and only by its holder, so another process can read the kind from pg_locks
 *   and answer the same BusyError ("A turn is already running…") or preempt only a turn.
 * hashtext is 32 bits: two sessions whose ids collide share a slot (one of them is busy while
 * the other runs) — about one pair in 4·10⁹, and it costs a 409, never wrong data.
 * Advisory locks are per database, like the sessions they guard.
 */
import type pg from "pg";
import { runChannel, runQuery } from "./channel";

export const RUN_KINDS = ["turn", "compaction", "navigation", "edit"] as const;
export type RunKind = (typeof RUN_KINDS)[number];

/** "ARB\0"; the kinds follow it. */
const SLOT_SPACE = 0x41524200;
const KIND_SPACE = SLOT_SPACE + 1;

const kindSpace = (kind: RunKind) => KIND_SPACE + RUN_KINDS.indexOf(kind);

/**
 * Takes the session's slot for this process, on `client` (default: the registry connection).
 * True when taken; false when another process holds it. Throws DatabaseUnavailableError.
 */
export async function tryLockSession(sessionId: string, kind: RunKind, client?: pg.Client): Promise<boolean> {
  const c = client ?? (await runChannel());
  const rows = await runQuery<{ locked: boolean | null }>(
    c,
    `SELECT CASE WHEN pg_try_advisory_lock($1::int, hashtext($3)) THEN pg_try_advisory_lock($2::int, hashtext($3)) END AS locked`,
    [SLOT_SPACE, kindSpace(kind), sessionId],
  );
  // null: the slot is taken; false: the slot is ours but a colliding session holds the kind key.
  return rows[0]?.locked != null;
}

/** Gives the slot back. Issued synchronously on `client`, so a later claim is queued behind it. */
export function unlockSession(client: pg.Client, sessionId: string, kind: RunKind): Promise<void> {
  return runQuery(client, `SELECT pg_advisory_unlock($1::int, hashtext($3)), pg_advisory_unlock($2::int, hashtext($3))`, [
    SLOT_SPACE,
    kindSpace(kind),
    sessionId,
  ]).then(() => undefined);
}

/**
 * Who holds the session's slot, in any process of this database: undefined when nobody, else the
 * kind (undefined kind if it could not be read, e.g. between the holder's two lock calls).
 */
export async function lockHolder(sessionId: string): Promise<{ kind?: RunKind } | undefined> {
  const rows = await runQuery<{ space: number }>(
    await runChannel(),
    `SELECT l.classid::bigint::int AS space FROM pg_locks l
     WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2
       AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
       AND l.objid = (hashtext($1)::bigint & 4294967295)::text::oid
       AND l.classid BETWEEN $2::bigint AND $3::bigint`,
    [sessionId, SLOT_SPACE, KIND_SPACE + RUN_KINDS.length - 1],
  );
  if (!rows.some((r) => r.space === SLOT_SPACE)) return undefined;
  const kind = rows.map((r) => RUN_KINDS[r.space - KIND_SPACE]).find((k) => k !== undefined);
  return kind ? { kind } : {};
}
