/**
 * Whole-session data derived from a cached session's entries (memoPerEntries with `bytesOf`)
 * counts against the read model's byte bound: charged to that session, replaced (not added)
 * when it is computed again after appends, dropped with a rewrite, and evicted with it.
 */
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@/test/db";
import { assistantMsg, userMsg } from "@/test/session-factories";
import type { ToolResultMessage } from "@/lib/session/types";
import { appendEntries, applyPrune, createSession, getSessionMeta } from "..";
import { chargePromptMemory, configureReadModel, memoPerEntries, peekCachedSession, readModelStats, readSession } from ".";

useTestDatabase();

async function appendText(sessionId: string, text: string) {
  const { leafId } = await getSessionMeta({ id: sessionId });
  return appendEntries({ sessionId, expectedLeafId: leafId, entries: [{ type: "message", message: userMsg(text) }] });
}

/** Derived data of `perEntry` bytes per entry, and how many times it was computed. */
function derived(perEntry = 1000) {
  let computed = 0;
  const of = memoPerEntries(
    (tree) => {
      computed++;
      return tree.getEntryCount();
    },
    (count) => count * perEntry,
  );
  return { of, computed: () => computed };
}

describe("memoPerEntries charges the cached session", () => {
  it("adds the value's bytes once, replaces them after appends, and drops them with a rewrite", async () => {
    configureReadModel({ clear: true });
    const { id } = await createSession();
    await appendText(id, "one");
    await appendText(id, "two");
    const { of, computed } = derived();

    const before = readModelStats().bytes;
    const view = await readSession({ sessionId: id });
    const plain = readModelStats().bytes - before;
    expect(of(view.tree)).toBe(2);
    expect(readModelStats().bytes - before).toBe(plain + 2000);
    // The same version again: no new computation, no new charge.
    expect(of((await readSession({ sessionId: id })).tree)).toBe(2);
    expect(computed()).toBe(1);
    expect(readModelStats().bytes - before).toBe(plain + 2000);

    await appendText(id, "three");
    const grown = await readSession({ sessionId: id });
    const afterAppend = readModelStats().bytes;
    expect(of(grown.tree)).toBe(3);
    expect(readModelStats().bytes - afterAppend).toBe(1000);

    // Two more entries, then the derived value again: the charge becomes 5000 (+2000).
    const result: ToolResultMessage = { role: "toolResult", toolCallId: "c1", toolName: "bash", content: [{ type: "text", text: "long output" }], isError: false, timestamp: 0 };
    const { leafId } = await getSessionMeta({ id });
    await appendEntries({ sessionId: id, expectedLeafId: leafId, entries: [{ type: "message", message: assistantMsg("calling") }, { type: "message", message: result }] });
    const five = await readSession({ sessionId: id });
    const toolEntryId = five.tree.getLeafId()!;
    const beforeFive = readModelStats().bytes;
    expect(of(five.tree)).toBe(5);
    expect(readModelStats().bytes - beforeFive).toBe(2000);

    // A rewrite builds a new tree: the old tree's 5000 bytes go with it, the new one is charged anew.
    await applyPrune({ sessionId: id, pruned: [{ entryId: toolEntryId, message: { ...result, content: [{ type: "text", text: "[pruned]" }], prunedAt: 1 } }] });
    expect(peekCachedSession(id)).toBeDefined();
    const rewritten = readModelStats().bytes;
    expect(rewritten).toBeLessThan(beforeFive + 2000 - 4000);
    expect(of((await readSession({ sessionId: id })).tree)).toBe(5);
    expect(readModelStats().bytes - rewritten).toBe(5000);
  });

  it("keeps a charge of request texts (chargePromptMemory) through appends and a rewrite; a reload drops it", async () => {
    configureReadModel({ clear: true });
    const { id } = await createSession();
    await appendText(id, "one");
    await readSession({ sessionId: id });
    const plain = readModelStats().bytes;
    chargePromptMemory(id, 7000);
    expect(readModelStats().bytes - plain).toBe(7000);
    await appendText(id, "two");
    await readSession({ sessionId: id });
    const grown = readModelStats().bytes;
    expect(grown - plain).toBeGreaterThan(7000);
    const result: ToolResultMessage = { role: "toolResult", toolCallId: "c1", toolName: "bash", content: [{ type: "text", text: "out" }], isError: false, timestamp: 0 };
    const { leafId } = await getSessionMeta({ id });
    const { entries } = await appendEntries({ sessionId: id, expectedLeafId: leafId, entries: [{ type: "message", message: result }] });
    await readSession({ sessionId: id });
    const withResult = readModelStats().bytes;
    // Same size after the prune (3 characters for 3): only the charge decides the difference.
    await applyPrune({ sessionId: id, pruned: [{ entryId: entries[0]!.id, message: { ...result, content: [{ type: "text", text: "[p]" }], prunedAt: 1 } }] });
    const rewritten = readModelStats().bytes;
    expect(Math.abs(rewritten - withResult)).toBeLessThan(100);
    configureReadModel({ clear: true });
    await readSession({ sessionId: id });
    expect(rewritten - readModelStats().bytes).toBeGreaterThan(7000 - 100);
    // Not cached: nothing to charge.
    configureReadModel({ clear: true });
    chargePromptMemory(id, 7000);
    expect(readModelStats().bytes).toBe(0);
  });

  it("hands the value of an earlier count to the next computation after appends, not after a rewrite", async () => {
    configureReadModel({ clear: true });
    const { id } = await createSession();
    await appendText(id, "one");
    const seen: (number | undefined)[] = [];
    const of = memoPerEntries((tree, previous?: number) => {
      seen.push(previous);
      return tree.getEntryCount();
    });
    of((await readSession({ sessionId: id })).tree);
    await appendText(id, "two");
    of((await readSession({ sessionId: id })).tree);
    configureReadModel({ clear: true });
    of((await readSession({ sessionId: id })).tree);
    expect(seen).toEqual([undefined, 1, undefined]);
  });

  it("counts against the bound: a charge that overflows the cache evicts the least recently used session", async () => {
    const { of } = derived(300);
    const a = (await createSession()).id;
    const b = (await createSession()).id;
    for (const id of [a, b]) for (let i = 0; i < 3; i++) await appendText(id, `entry ${i}`);
    configureReadModel({ clear: true });
    try {
      await readSession({ sessionId: a });
      const viewB = await readSession({ sessionId: b });
      // Room for both sessions' entries, not for B's 900 bytes of derived data on top.
      configureReadModel({ maxBytes: readModelStats().bytes + 500 });
      expect(peekCachedSession(a)).toBeDefined();
      of(viewB.tree);
      expect(peekCachedSession(a)).toBeUndefined();
      expect(peekCachedSession(b)).toBeDefined();
      expect(readModelStats().bytes).toBeLessThanOrEqual(readModelStats().limit);
    } finally {
      configureReadModel({ maxBytes: 256 * 1024 * 1024 });
    }
  });
});
