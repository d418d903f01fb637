/**
 * The request texts a chat turn keeps with a cached session's messages (lib/llm/spliced-prompt.ts)
 * count against the read model's byte budget (chargePromptMemory): through the real chat route,
 * provider and fake model server, a turn charges the session about its context's request text
 * once, the next turn only what it adds, and a budget that held two sessions before a turn
 * evicts the other one once the turn's texts are counted.
 */
import { describe, expect, it } from "vitest";
import { readSession } from "@/lib/db";
import { configureReadModel, peekCachedSession, readModelStats } from "@/lib/db/read-model";
import { useTestDatabase } from "@/test/db";
import { newSession, postChat, readAll, seedHistory, useHarness } from "@/test/chat-harness";

useTestDatabase();

const h = useHarness({ contextWindow: 1_000_000 });

/** The cache's total bytes once `sessionId` is read into it. */
async function cachedBytes(sessionId: string): Promise<number> {
  await readSession({ sessionId });
  return readModelStats().bytes;
}

/** Bytes of the message list the model server received in the last request, system prompt left out. */
function sentMessageBytes(): number {
  const messages = (h.fake.requests.at(-1)?.body.messages ?? []) as { role: string }[];
  return Buffer.byteLength(JSON.stringify(messages.filter((m) => m.role !== "system")));
}

describe("request texts kept with a session's messages", () => {
  it("are charged to the cached session: the context once, then what each turn adds", async () => {
    configureReadModel({ clear: true, maxBytes: 256 * 1024 * 1024 });
    const { id } = await newSession();
    await seedHistory(id, 60, 3000);
    const before = await cachedBytes(id);

    await readAll(await postChat(id, "first question"));
    const context = sentMessageBytes();
    expect(context).toBeGreaterThan(300_000);
    const afterFirst = readModelStats().bytes;
    // The turn's own two entries add a few KB; the kept request texts add about the context.
    expect(afterFirst - before).toBeGreaterThan(context * 0.9);
    expect(afterFirst - before).toBeLessThan(context * 1.2);

    await readAll(await postChat(id, "second question"));
    const afterSecond = readModelStats().bytes;
    expect(afterSecond - afterFirst).toBeGreaterThan(0);
    expect(afterSecond - afterFirst).toBeLessThan(context * 0.05);
  });

  it("count towards eviction: the budget that held two sessions evicts the older one after a turn", async () => {
    configureReadModel({ clear: true, maxBytes: 256 * 1024 * 1024 });
    const a = await newSession();
    const b = await newSession();
    await seedHistory(a.id, 60, 3000);
    await seedHistory(b.id, 60, 3000);
    await cachedBytes(b.id);
    const both = await cachedBytes(a.id);
    // b was read first, then a: b is the least recently used. Room for both and ~100 KB more.
    configureReadModel({ clear: true, maxBytes: both + 100_000 });
    await readSession({ sessionId: b.id });
    await readSession({ sessionId: a.id });
    expect(peekCachedSession(b.id)).toBeDefined();

    await readAll(await postChat(a.id, "a question"));
    expect(sentMessageBytes()).toBeGreaterThan(300_000);
    expect(peekCachedSession(a.id)).toBeDefined();
    expect(peekCachedSession(b.id)).toBeUndefined();
    expect(readModelStats().bytes).toBeLessThanOrEqual(both + 100_000);
  });
});
