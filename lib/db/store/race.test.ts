/**
 * Two tabs appending to one session: real concurrent transactions on real connections. No entry
 * may be lost or duplicated and the tree must stay a valid chain; the losers get ConflictError.
 */
import { describe, expect, it } from "vitest";
import { userMsg } from "@/test/session-factories";
import type { SessionEntry } from "@/lib/session/types";
import { useTestDatabase } from "@/test/db";
import { getDb } from "../client";
import { appendEntries, CONFLICT_MESSAGE, ConflictError, commitEntries, createSession, getSessionMeta, loadEntries, loadPath } from "..";

useTestDatabase();

const WRITERS = 20;

function entryFor(i: number, parentId: string | null): SessionEntry {
  const id = `race${i.toString(16).padStart(4, "0")}`;
  return { type: "message", id, parentId, timestamp: new Date().toISOString(), message: userMsg(`writer ${i}`) } as SessionEntry;
}

async function seqs(sessionId: string): Promise<number[]> {
  const rows = await getDb().$queryRaw<{ seq: number }[]>`SELECT seq FROM entries WHERE session_id = ${sessionId} ORDER BY seq`;
  return rows.map((r) => r.seq);
}

describe("concurrent appends", () => {
  it("lets exactly one of 20 writers with the same expected leaf win; the others get ConflictError", async () => {
    const { id } = await createSession();
    const base = await appendEntries({ sessionId: id, expectedLeafId: null, entries: [{ type: "message", message: userMsg("start") }] });
    const leaf = base.leafId;
    const results = await Promise.allSettled(
      Array.from({ length: WRITERS }, (_, i) => commitEntries({ sessionId: id, expectedLeafId: leaf, entries: [entryFor(i, leaf)] })),
    );
    const won = results.filter((r) => r.status === "fulfilled");
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(WRITERS - 1);
    for (const r of lost) {
      expect(r.reason).toBeInstanceOf(ConflictError);
      expect((r.reason as Error).message).toBe(CONFLICT_MESSAGE);
    }
    const meta = await getSessionMeta({ id });
    const entries = await loadEntries({ sessionId: id });
    expect(meta.entryCount).toBe(2);
    expect(entries).toHaveLength(2);
    expect(meta.leafId).toBe(entries[1]!.id);
    expect(await seqs(id)).toEqual([0, 1]);
  });

  it("lands all 20 as one valid chain when each writer reloads the leaf and retries", async () => {
    const { id } = await createSession();
    let conflicts = 0;
    const writer = async (i: number) => {
      for (;;) {
        const { leafId } = await getSessionMeta({ id });
        try {
          await commitEntries({ sessionId: id, expectedLeafId: leafId, entries: [entryFor(i, leafId)] });
          return;
        } catch (error) {
          if (!(error instanceof ConflictError)) throw error;
          conflicts += 1;
        }
      }
    };
    await Promise.all(Array.from({ length: WRITERS }, (_, i) => writer(i)));

    const entries = await loadEntries({ sessionId: id });
    const meta = await getSessionMeta({ id });
    expect(meta.entryCount).toBe(WRITERS);
    expect(entries).toHaveLength(WRITERS);
    expect(new Set(entries.map((e) => e.id)).size).toBe(WRITERS); // nothing duplicated
    expect(new Set(entries.map((e) => (e as { message: { content: string } }).message.content)).size).toBe(WRITERS); // nothing lost
    expect(await seqs(id)).toEqual(Array.from({ length: WRITERS }, (_, i) => i));
    // One chain: each entry's parent is the entry before it in file order, and the leaf's path covers all.
    expect(entries.map((e) => e.parentId)).toEqual([null, ...entries.slice(0, -1).map((e) => e.id)]);
    expect(meta.leafId).toBe(entries.at(-1)!.id);
    expect((await loadPath({ sessionId: id })).map((e) => e.id)).toEqual(entries.map((e) => e.id));
    expect(conflicts).toBeGreaterThan(0); // the race really happened
  });

  it("two tabs through appendEntries: the second one sees the conflict, reloads and lands", async () => {
    const { id } = await createSession();
    const tabA = appendEntries({ sessionId: id, expectedLeafId: null, entries: [{ type: "message", message: userMsg("from A") }] });
    const tabB = appendEntries({ sessionId: id, expectedLeafId: null, entries: [{ type: "message", message: userMsg("from B") }] });
    const [a, b] = await Promise.allSettled([tabA, tabB]);
    const loser = [a, b].find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect([a, b].filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(loser.reason).toBeInstanceOf(ConflictError);
    const { leafId } = await getSessionMeta({ id });
    await appendEntries({ sessionId: id, expectedLeafId: leafId, entries: [{ type: "message", message: userMsg("retry") }] });
    const path = await loadPath({ sessionId: id });
    expect(path).toHaveLength(2);
    expect(path[0]!.parentId).toBeNull();
    expect(path[1]!.parentId).toBe(path[0]!.id);
  });
});
