import "server-only";
/**
 * The Trash (ui.md "Pages: /trash"): sessions moved there by "Delete" (softDeleteSession) stay
 * restorable for TRASH_DAYS, then are deleted for good; "Delete now" does it at once.
 *
 * Contract:
 * - `listTrash()`: the sessions in the trash, most recently deleted first, each with the time it
 *   will be purged.
 * - `purgeTrash(now)`: deletes for good every session deleted more than TRASH_DAYS before `now`
 *   (its entries' table is dropped with its row: the partition trigger; its model calls, source
 *   and sync rows cascade). `purgeExpiredTrash()` runs it at most once an hour per process, from
 *   the list and the trash page (no scheduler: Arbor runs only while it is used).
 * - `deleteForGood({ id })` deletes one session, only if it is in the trash (else NotFoundError).
 */
import { getDb } from "../client";
import { NotFoundError } from "../errors";
import type { TrashedSession } from "@/lib/types/session";

export type { TrashedSession };
import { SESSION_SUMMARY_SELECT, toSessionSummary } from "./session-rows";

export const TRASH_DAYS = 30;
const DAY_MS = 86_400_000;
const PURGE_EVERY_MS = 3_600_000;


export async function listTrash(limit = 500): Promise<TrashedSession[]> {
  const rows = await getDb().session.findMany({
    where: { deletedAt: { not: null } },
    orderBy: [{ deletedAt: "desc" }, { id: "asc" }],
    take: limit,
    select: SESSION_SUMMARY_SELECT,
  });
  return rows.map((r) => {
    const s = toSessionSummary(r);
    const deletedAt = s.deletedAt ?? new Date(0).toISOString();
    return { ...s, deletedAt, purgeAt: new Date(Date.parse(deletedAt) + TRASH_DAYS * DAY_MS).toISOString() };
  });
}

export async function purgeTrash(now = new Date()): Promise<number> {
  const { count } = await getDb().session.deleteMany({ where: { deletedAt: { lt: new Date(now.getTime() - TRASH_DAYS * DAY_MS) } } });
  return count;
}

let lastPurge = 0;

/** purgeTrash, at most once an hour in this process; never fails its caller. */
export async function purgeExpiredTrash(): Promise<void> {
  if (Date.now() - lastPurge < PURGE_EVERY_MS) return;
  lastPurge = Date.now();
  await purgeTrash().catch(() => {
    lastPurge = 0; // try again on the next call
  });
}

export async function deleteForGood(input: { id: string }): Promise<void> {
  const { count } = await getDb().session.deleteMany({ where: { id: input.id, deletedAt: { not: null } } });
  if (count === 0) throw new NotFoundError({ sessionId: input.id, message: `Session ${input.id} is not in the trash` });
}
