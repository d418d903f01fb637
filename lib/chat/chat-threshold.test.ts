/**
 * Threshold auto-compaction through POST /api/chat (session-engine.md §13.2 step 9, §13.3 step 9): with a
 * 4000-token window and reserveTokens 1000 the threshold is 3000 context tokens; 3000 does not
 * compact, 3001 does, and the agent then continues with the synthetic prompt.
 */
import { describe, expect, it } from "vitest";
import type { SessionEntry } from "@/lib/session/types";
import { useTestDatabase } from "@/test/db";
import { dataOf, newSession, postChat, readAll, seedHistory, useHarness, transcript } from "@/test/chat-harness";

useTestDatabase();

const h = useHarness({ contextWindow: 4000 });

const SETTINGS = { compaction: { reserveTokens: 1000, keepRecentTokens: 150 } };

async function turnWithUsage(promptTokens: number, completionTokens: number) {
  const s = await newSession(SETTINGS);
  await seedHistory(s.id, 4);
  h.fake.script({ text: "A long answer", usage: { promptTokens, completionTokens } });
  const chunks = await readAll(await postChat(s.id, "keep going"));
  return { s, chunks };
}

describe("threshold compaction (session-engine.md §13.2 step 9)", () => {
  it("does not compact at exactly contextWindow - reserveTokens", async () => {
    const { s, chunks } = await turnWithUsage(2990, 10);
    expect(dataOf(chunks, "compaction")).toEqual([]);
    expect((await transcript(s.id)).slice(-2)).toEqual(["user: keep going", "assistant: A long answer"]);
    expect(h.fake.requests).toHaveLength(1);
  });

  it("compacts one token above the threshold, then continues with the synthetic prompt", async () => {
    const { s, chunks } = await turnWithUsage(2991, 10);
    const compaction = dataOf<{ phase: string; reason: string; entryId?: string; willRetry?: boolean }>(chunks, "compaction");
    expect(compaction[0]).toEqual({ phase: "start", reason: "threshold" });
    expect(compaction.some((c) => c.phase === "delta")).toBe(true);
    const end = compaction.at(-1)!;
    expect(end).toMatchObject({ phase: "end", reason: "threshold", willRetry: false });
    expect(end.entryId).toBeTruthy();

    const saved = dataOf<{ entry: SessionEntry }>(chunks, "entry").map((d) => d.entry);
    const kinds = saved.map((e) => (e.type === "message" ? e.message.role : e.type));
    expect(kinds).toEqual(["user", "assistant", "compaction", "user", "assistant"]);
    expect(saved[2]!.id).toBe(end.entryId);
    const cont = saved[3] as Extract<SessionEntry, { type: "message" }>;
    expect(cont.message).toMatchObject({ role: "user", content: "Continue if you have next steps.", synthetic: true });

    expect((await transcript(s.id)).slice(-5)).toEqual([
      "user: keep going",
      "assistant: A long answer",
      "[compaction]",
      "user: Continue if you have next steps.",
      "assistant: Echo: Continue if you have next steps.",
    ]);
    // The continuation was sent with the summary instead of the compacted history.
    const last = h.fake.requests.at(-1)!;
    expect(JSON.stringify(last.messages)).toContain("Fake summary");
    expect(JSON.stringify(last.messages)).not.toContain("question 0:");
  });
});
