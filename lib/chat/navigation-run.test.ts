/**
 * POST /api/sessions/[id]/navigate (session-engine.md §11.4): moving with and without a branch summary,
 * cancelling the summary (nothing written), "Already at this point", unknown targets, the
 * branchSummary.enabled switch, and 409 while a turn runs.
 */
import { describe, expect, it } from "vitest";
import { findSessionMeta } from "@/lib/db";
import type { BranchSummaryEntry, SessionEntry } from "@/lib/session/types";
import { useTestDatabase } from "@/test/db";
import { looksLikeSummarization } from "@/test/fake-llm-server";
import { readUIStream } from "@/lib/chat-protocol/read-ui-stream";
import { waitForRun } from "@/lib/runs";
import {
  dataOf,
  navigate,
  newSession,
  postChat,
  readAll,
  seedHistory,
  useHarness,
  storedEntries,
} from "@/test/chat-harness";

useTestDatabase();

const h = useHarness();

/** u0 a0 u1 a1 u2 a2, leaf a2. */
async function conversation(settings?: unknown) {
  const s = await newSession(settings);
  const entries = await seedHistory(s.id, 3, 60);
  const [u0, a0, u1, a1, u2, a2] = entries as [SessionEntry, SessionEntry, SessionEntry, SessionEntry, SessionEntry, SessionEntry];
  return { s, u0, a0, u1, a1, u2, a2 };
}

const leafOf = async (id: string) => (await findSessionMeta({ id }))?.leafId;
type Navigated = { leafId: string | null; previousLeafId?: string | null; editorText?: string; cancelled: boolean; aborted?: boolean; summaryEntryId?: string };

describe("navigate with a branch summary", () => {
  it("streams the summary, stores it under the new leaf and reports where it went", async () => {
    const { s, a0, a2 } = await conversation();
    const chunks = await readAll(await navigate(s.id, { targetId: a0.id, summarize: true, customInstructions: "only the decisions" }));

    const parts = dataOf<{ phase: string; delta?: string; entryId?: string }>(chunks, "branchSummary");
    expect(parts[0]).toEqual({ phase: "start" });
    const streamed = parts.filter((p) => p.phase === "delta").map((p) => p.delta).join("");
    expect(streamed.length).toBeGreaterThan(0);
    const end = parts.at(-1)!;
    expect(end.phase).toBe("end");

    const all = await storedEntries(s.id);
    const summary = all.find((e): e is BranchSummaryEntry & SessionEntry => e.type === "branch_summary")!;
    expect(end.entryId).toBe(summary.id);
    expect(summary.parentId).toBe(a0.id);
    expect(summary.summary).toContain(streamed);
    expect(dataOf<{ entry: SessionEntry }>(chunks, "entry").map((d) => d.entry.id)).toEqual([summary.id]);
    expect(dataOf<Navigated>(chunks, "navigated")).toEqual([
      { leafId: summary.id, previousLeafId: a2.id, cancelled: false, summaryEntryId: summary.id },
    ]);
    expect(await leafOf(s.id)).toBe(summary.id);
    expect(h.fake.requests.find(looksLikeSummarization)?.lastUserText).toContain("only the decisions");
  });

  it("cancelling the request during the summary writes nothing and leaves the leaf", async () => {
    const { s, a0, a2 } = await conversation();
    const before = (await storedEntries(s.id)).length;
    h.fake.setDefault(() => ({ text: "## Goal\nA slow branch summary", chunkSize: 2, delayMs: 25 }));
    const controller = new AbortController();
    const chunks = [];
    for await (const chunk of readUIStream(await navigate(s.id, { targetId: a0.id, summarize: true }, controller.signal))) {
      chunks.push(chunk);
      if (chunk.type === "data-branchSummary" && (chunk.data as { phase: string }).phase === "delta") controller.abort();
    }
    expect(dataOf(chunks, "branchSummary").at(-1)).toEqual({ phase: "end", aborted: true });
    expect(dataOf<Navigated>(chunks, "navigated")).toEqual([
      { leafId: a2.id, previousLeafId: a2.id, cancelled: true, aborted: true },
    ]);
    await waitForRun(s.id);
    expect((await storedEntries(s.id)).length).toBe(before);
    expect(await leafOf(s.id)).toBe(a2.id);
  });

  it("with branch summaries switched off, moves without summarizing", async () => {
    const { s, a0 } = await conversation({ branchSummary: { enabled: false } });
    const chunks = await readAll(await navigate(s.id, { targetId: a0.id, summarize: true }));
    expect(dataOf(chunks, "branchSummary")).toEqual([]);
    expect(dataOf<Navigated>(chunks, "navigated")[0]).toMatchObject({ leafId: a0.id, cancelled: false });
    expect(h.fake.requests).toHaveLength(0);
  });
});

describe("navigate without a summary", () => {
  it("re-editing a user message stands on its parent and returns its text for the editor", async () => {
    const { s, a0, u1, a2 } = await conversation();
    const before = (await storedEntries(s.id)).length;
    const chunks = await readAll(await navigate(s.id, { targetId: u1.id, summarize: false }));
    const [nav] = dataOf<Navigated>(chunks, "navigated");
    expect(nav).toMatchObject({ leafId: a0.id, previousLeafId: a2.id, cancelled: false });
    expect(nav?.editorText).toMatch(/^question 1: /);
    expect(dataOf(chunks, "entry")).toEqual([]);
    expect((await storedEntries(s.id)).length).toBe(before);
    expect(await leafOf(s.id)).toBe(a0.id);
  });

  it('says "Already at this point" for the current leaf and reports unknown targets', async () => {
    const { s, a2 } = await conversation();
    expect(dataOf(await readAll(await navigate(s.id, { targetId: a2.id, summarize: true })), "error")).toEqual([
      { message: "Already at this point" },
    ]);
    expect(dataOf(await readAll(await navigate(s.id, { targetId: "nope", summarize: false })), "error")).toEqual([
      { message: "Entry nope not found", code: "not_found" },
    ]);
    expect(await leafOf(s.id)).toBe(a2.id);
  });

  it("400 for a bad body, 404 for an unknown session, 409 while a turn runs", async () => {
    const { s, a0 } = await conversation();
    expect((await navigate(s.id, { targetId: a0.id })).status).toBe(400);
    expect((await navigate("missing", { targetId: "x", summarize: false })).status).toBe(404);
    h.fake.script({ text: "slow slow slow slow", chunkSize: 2, delayMs: 25 });
    const turn = await postChat(s.id, "hello");
    const busy = await navigate(s.id, { targetId: a0.id, summarize: false });
    expect(busy.status).toBe(409);
    expect(await busy.json()).toEqual({ error: "A turn is already running in this session", code: "busy" });
    await readAll(turn);
  });
});
