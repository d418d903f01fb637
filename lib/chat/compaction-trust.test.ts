/**
 * Compaction you can trust (docs/engine.md "Arbor extensions around compaction"), over HTTP with the fake model server: compact, compact
 * again with another focus (a sibling of the same span), compare both with their fact checks,
 * choose one; undo a compaction, then send a message and the model gets the pre-compaction context.
 */
import { describe, expect, it } from "vitest";
import { GET as reviewGet } from "@/app/api/sessions/[id]/compactions/[entryId]/route";
import { loadTree } from "@/lib/db";
import { useTestDatabase } from "@/test/db";
import { KEEP, again, compactionCtx, compactions, review } from "@/test/compaction-routes";
import { looksLikeSummarization } from "@/test/fake-llm-server";
import { messageText } from "@/test/fake-llm-steps";
import { moveLeafBack } from "./session-edits";
import { compactRun, dataOf, newSession, postChat, readAll, seedHistory, storedEntries, useHarness } from "@/test/chat-harness";

useTestDatabase();
const h = useHarness();


const leafOf = async (id: string) => (await loadTree({ sessionId: id })).meta.leafId;

describe("compact again, compare, choose", () => {
  it("stores a sibling of the same span with the other focus, restores the leaf, and 'use this one' moves it", async () => {
    const s = await newSession(KEEP);
    await seedHistory(s.id, 4);
    h.fake.script({ text: "## Goal\nAnswer the questions." }, { text: "I answered." });
    expect(dataOf(await readAll(await compactRun(s.id)), "error")).toEqual([]);
    const [first] = await compactions(s.id);
    const leafBefore = await leafOf(s.id);
    expect(leafBefore).toBe(first!.id);

    h.fake.reset();
    h.fake.script({ text: "## Goal\nAnswer question 0 and question 1 about lorem ipsum." }, { text: "I answered more." });
    const chunks = await readAll(await again(s.id, first!.id, { focus: "the questions asked" }));
    expect(dataOf(chunks, "error")).toEqual([]);
    expect(h.fake.requests.find(looksLikeSummarization)?.lastUserText).toContain("Additional focus: the questions asked");

    const both = await compactions(s.id);
    expect(both).toHaveLength(2);
    const second = both[1]!;
    expect(second.parentId).toBe(first!.parentId);
    expect(second.firstKeptEntryId).toBe(first!.firstKeptEntryId);
    expect(await leafOf(s.id)).toBe(leafBefore);
    expect(dataOf(chunks, "navigated")).toEqual([{ leafId: leafBefore, previousLeafId: second.id, cancelled: false }]);

    const r = await review(s.id, second.id);
    expect(r.alternatives.map((c) => [c.id, c.active])).toEqual([
      [first!.id, true],
      [second.id, false],
    ]);
    const [a, b] = r.alternatives;
    expect(b!.check.total).toBe(a!.check.total);
    expect(b!.check.carried).toBeGreaterThanOrEqual(a!.check.carried);
    expect(b!.summaryTokens).toBeGreaterThan(0);

    expect(await moveLeafBack({ sessionId: s.id, leafId: second.id, expectedLeafId: leafBefore })).toEqual({ ok: true, data: { leafId: second.id } });
    expect((await review(s.id, second.id)).alternatives.map((c) => c.active)).toEqual([false, true]);
  });

  it("refuses an entry that is not a compaction and writes nothing", async () => {
    const s = await newSession(KEEP);
    const seeded = await seedHistory(s.id, 4);
    const chunks = await readAll(await again(s.id, seeded[0]!.id, {}));
    expect(dataOf<{ message: string }>(chunks, "error").map((e) => e.message)).toEqual([`Entry ${seeded[0]!.id} is not a compaction`]);
    expect((await storedEntries(s.id)).length).toBe(seeded.length);
    const res = await reviewGet(new Request("http://arbor.test/x"), compactionCtx(s.id, seeded[0]!.id));
    expect(res.status).toBe(404);
  });
});

describe("undo a compaction", () => {
  it("after undo, the next message is sent with the full pre-compaction history", async () => {
    const s = await newSession(KEEP);
    const seeded = await seedHistory(s.id, 4);
    h.fake.script({ text: "## Goal\nSummary of the questions." }, { text: "I answered." });
    await readAll(await compactRun(s.id));
    const [c] = await compactions(s.id);
    const r = await review(s.id, c!.id);
    expect(r.undo).toEqual({ ok: true, compactionId: c!.id, undoLeafId: seeded.at(-1)!.id, redoLeafId: c!.id });
    if (!r.undo.ok) return;
    expect((await moveLeafBack({ sessionId: s.id, leafId: r.undo.undoLeafId, expectedLeafId: r.undo.redoLeafId })).ok).toBe(true);

    h.fake.reset();
    h.fake.script({ text: "Back with everything." });
    await readAll(await postChat(s.id, "What was question 0?"));
    const turn = h.fake.requests.find((q) => !looksLikeSummarization(q))!;
    const sent = turn.messages.filter((m) => m.role !== "system").map((m) => messageText(m.content));
    expect(sent.some((t) => t.startsWith("question 0:"))).toBe(true);
    expect(sent.some((t) => t.includes("Summary of the questions."))).toBe(false);
    expect(sent).toHaveLength(9);

    // The compaction is still there, as a branch; Redo would return to it.
    expect((await compactions(s.id)).map((e) => e.id)).toEqual([c!.id]);
    expect((await review(s.id, c!.id)).compaction.active).toBe(false);
  });
});
