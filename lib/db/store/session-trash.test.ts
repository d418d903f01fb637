/** The Trash: deleted sessions are listed, restorable, and deleted for good after 30 days (or when asked). */
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@/test/db";
import { assistantMsg, userMsg } from "@/test/session-factories";
import { getDb } from "../client";
import { appendEntries, createSession, deleteForGood, getSessionMeta, listTrash, NotFoundError, purgeTrash, softDeleteSession, TRASH_DAYS } from "..";

useTestDatabase();

const DAY = 86_400_000;

async function sessionWithEntries(title: string): Promise<string> {
  const s = await createSession({ title });
  await appendEntries({
    sessionId: s.id,
    expectedLeafId: null,
    entries: [
      { type: "message", message: userMsg("hello") },
      { type: "message", message: assistantMsg("hi", { usage: { input: 10, output: 2, totalTokens: 12 } }) },
    ],
  });
  return s.id;
}

async function deletedAt(id: string, at: Date): Promise<void> {
  await getDb().$executeRaw`UPDATE sessions SET deleted_at = ${at} WHERE id = ${id}`;
}

describe("the Trash", () => {
  it("lists deleted sessions, newest first, with the day each goes for good", async () => {
    const a = await sessionWithEntries("Trash list A");
    const b = await sessionWithEntries("Trash list B");
    await softDeleteSession({ id: a });
    await softDeleteSession({ id: b });
    await deletedAt(a, new Date(Date.now() - 2 * DAY));
    const trash = (await listTrash()).filter((s) => s.id === a || s.id === b);
    expect(trash.map((s) => s.id)).toEqual([b, a]);
    const first = trash[1]!;
    expect(Date.parse(first.purgeAt) - Date.parse(first.deletedAt)).toBe(TRASH_DAYS * DAY);
  });

  it("purges only what was deleted more than 30 days ago, entries, full-text and ledger rows and all", async () => {
    const old = await sessionWithEntries("Trash purge old");
    const recent = await sessionWithEntries("Trash purge recent");
    const live = await sessionWithEntries("Trash purge live");
    const rowsOf = async (table: "entries" | "entry_search" | "usage_rows") =>
      Number((await getDb().$queryRawUnsafe<{ n: bigint }[]>(`SELECT count(*)::bigint AS n FROM ${table} WHERE session_id = $1`, old))[0]!.n);
    // What the session holds besides its row: entries, their full-text rows, the assistant reply's ledger row.
    expect([await rowsOf("entries"), await rowsOf("entry_search"), await rowsOf("usage_rows")]).toEqual([2, 2, 1]);
    await softDeleteSession({ id: old });
    await softDeleteSession({ id: recent });
    await deletedAt(old, new Date(Date.now() - (TRASH_DAYS + 1) * DAY));
    await deletedAt(recent, new Date(Date.now() - (TRASH_DAYS - 1) * DAY));
    expect(await purgeTrash()).toBeGreaterThanOrEqual(1);
    await expect(getSessionMeta({ id: old })).rejects.toBeInstanceOf(NotFoundError);
    expect((await getSessionMeta({ id: recent })).deletedAt).not.toBeNull();
    expect((await getSessionMeta({ id: live })).deletedAt).toBeNull();
    // Its entries, full-text rows and ledger rows went with it, and with them its usage sums.
    expect([await rowsOf("entries"), await rowsOf("entry_search"), await rowsOf("usage_rows")]).toEqual([0, 0, 0]);
    const rollup = await getDb().$queryRaw<{ n: bigint }[]>`SELECT count(*)::bigint AS n FROM usage_rollup WHERE session_id = ${old}`;
    expect(Number(rollup[0]!.n)).toBe(0);
  });

  it("deletes one for good on request, only from the trash", async () => {
    const id = await sessionWithEntries("Trash delete now");
    await expect(deleteForGood({ id })).rejects.toBeInstanceOf(NotFoundError);
    await softDeleteSession({ id });
    await deleteForGood({ id });
    await expect(getSessionMeta({ id })).rejects.toBeInstanceOf(NotFoundError);
  });
});
