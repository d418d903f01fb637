/**
 * The call rows a process keeps per session (read.ts readSessionCalls): after new
 * calls, attaches (of the newest and of an old call) and a change made behind the process's
 * back, every read equals a read with nothing kept, and the rows already kept are reused, not
 * read again.
 */
import { describe, expect, it } from "vitest";
import type { AgentModelInfo, ModelCallRecord } from "@/lib/agent/ports";
import { assistantMsg, userMsg } from "@/test/session-factories";
import { useTestDatabase } from "@/test/db";
import { getDb } from "../client";
import { clearCallRowsCache, readSessionCalls } from "./read";
import { attachCallEntry, recordModelCall } from "./model-calls";
import { appendEntries, createSession } from "..";

useTestDatabase();

const MODEL: AgentModelInfo = { provider: "openai-compatible", id: "fake-1", ref: "openai-compatible/fake-1", contextWindow: 32_000, maxOutputTokens: 4096, reasoning: false };

function call(i: number): ModelCallRecord {
  const answer = assistantMsg(`answer ${i}`);
  return {
    kind: "chat",
    model: MODEL,
    request: { system: "system", messages: [userMsg(`question ${i}`)], maxOutputTokens: 4096 },
    response: { message: answer, usage: answer.usage, stopReason: answer.stopReason },
    startedAt: Date.UTC(2026, 0, 1, 0, 0, i),
    durationMs: 10 + i,
  };
}

/** The session's calls read with nothing kept (as another process, or a restart, reads them). */
async function fresh(sessionId: string) {
  clearCallRowsCache();
  return (await readSessionCalls(sessionId))!.calls;
}

describe("readSessionCalls with the rows kept", () => {
  it("equals a read with nothing kept after new calls, attaches and a change behind its back", async () => {
    const { id: sessionId } = await createSession({});
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await recordModelCall({ sessionId, call: call(i) })).callId);
    const first = (await readSessionCalls(sessionId))!.calls;
    expect(first.map((c) => c.id)).toEqual(ids);

    // Nothing new: the same rows.
    expect((await readSessionCalls(sessionId))!.calls).toBe(first);

    // New calls, the newest attached: only they are read; the kept row objects stay.
    for (let i = 3; i < 5; i++) ids.push((await recordModelCall({ sessionId, call: call(i) })).callId);
    const commit = await appendEntries({ sessionId, expectedLeafId: null, entries: [{ type: "message", message: assistantMsg("answer 4") }] });
    const entryId = commit.entries[0]!.id;
    await attachCallEntry({ sessionId, callId: ids[4]!, entryId });
    const grown = (await readSessionCalls(sessionId))!.calls;
    expect(grown.map((c) => c.id)).toEqual(ids);
    expect(grown[0]).toBe(first[0]);
    expect(grown[4]!.entry_id).toBe(entryId);
    const again = await fresh(sessionId);
    expect(again).toEqual(grown);
    expect(again[0]).not.toBe(first[0]);

    // An old call attached since: read again, so its entry shows.
    const kept = (await readSessionCalls(sessionId))!.calls;
    await attachCallEntry({ sessionId, callId: ids[0]!, entryId });
    const attached = (await readSessionCalls(sessionId))!.calls;
    expect(attached[0]!.entry_id).toBe(entryId);
    expect(attached).toEqual(await fresh(sessionId));
    expect(kept[0]!.entry_id).toBeNull();

    // A call gone behind the process's back (the count no longer adds up): read again.
    await readSessionCalls(sessionId);
    await getDb().$executeRaw`DELETE FROM model_calls WHERE id = ${ids[2]!}`;
    ids.push((await recordModelCall({ sessionId, call: call(5) })).callId);
    const afterDelete = (await readSessionCalls(sessionId))!.calls;
    expect(afterDelete.map((c) => c.id)).toEqual(ids.filter((_, i) => i !== 2));
    expect(afterDelete).toEqual(await fresh(sessionId));
  });

  it("keeps each session's rows apart", async () => {
    const a = (await createSession({})).id;
    const b = (await createSession({})).id;
    await recordModelCall({ sessionId: a, call: call(0) });
    await recordModelCall({ sessionId: b, call: call(1) });
    await recordModelCall({ sessionId: b, call: call(2) });
    expect((await readSessionCalls(a))!.calls).toHaveLength(1);
    expect((await readSessionCalls(b))!.calls.map((c) => c.duration_ms)).toEqual([11, 12]);
    await recordModelCall({ sessionId: a, call: call(3) });
    expect((await readSessionCalls(a))!.calls.map((c) => c.duration_ms)).toEqual([10, 13]);
    expect((await readSessionCalls(b))!.calls).toHaveLength(2);
  });
});
