/**
 * Summaries that fail: manual compaction (POST /api/sessions/[id]/compact) and the branch summary
 * of a navigation (POST /api/sessions/[id]/navigate), with the summarization request answered by
 * a 500, garbage, silence (the idle timeout) or a connection dropped mid-summary. Every time:
 * nothing is written (no compaction or branch_summary entry, the same entries, the same leaf)
 * and the stream carries a clear message, in `data-error` and in the end part
 * (`data-compaction` / `data-branchSummary`).
 *
 * Not here: automatic (threshold / overflow) compaction, which on a failed summary moves on to
 * the next candidate model (session-engine.md §13.3 step 5) — the offline model is always one — so it does
 * not fail the way a manual compaction does.
 */
import { describe, expect, it } from "vitest";
import { findSessionMeta } from "@/lib/db";
import type { SessionEntry } from "@/lib/session/types";
import { useTestDatabase } from "@/test/db";
import { echoResponder, type FakeRequest, type FakeStep, looksLikeSummarization } from "@/test/fake-llm-server";
import { waitForRun } from "@/lib/runs";
import { compactRun, dataOf, navigate, newSession, readAll, seedHistory, useHarness, storedEntries } from "@/test/chat-harness";

useTestDatabase();

const h = useHarness({ runtime: { modelIdleTimeoutMs: 1000 } });

/** Summarization calls get `step`; chat calls are echoed. */
function summariesFail(step: FakeStep) {
  h.fake.setDefault((req: FakeRequest) => (looksLikeSummarization(req) ? step : echoResponder(req)));
}

const FAULTS: { name: string; step: FakeStep; reason: string | RegExp }[] = [
  { name: "a 500", step: { kind: "error", status: 500, message: "summarizer exploded" }, reason: "500 Internal Server Error: summarizer exploded" },
  { name: "garbage", step: { kind: "garbage" }, reason: "The model server sent a response that is not valid JSON: this is not json" },
  { name: "silence", step: { kind: "hang" }, reason: "The model stopped responding (no data for 1 s)" },
  {
    name: "a connection dropped mid-summary",
    step: { text: "## Goal\nHalf a summary that never ends", chunkSize: 4, delayMs: 10, failAfterChunks: 3 },
    reason: /^Connection error: /,
  },
];

/** The stored state a failed summary must not change. */
async function snapshot(sessionId: string) {
  const entries = await storedEntries(sessionId);
  return { ids: entries.map((e) => e.id), leafId: (await findSessionMeta({ id: sessionId }))?.leafId };
}

const summaryKinds = (entries: SessionEntry[]) => entries.filter((e) => e.type === "compaction" || e.type === "branch_summary");

const matches = (text: string | undefined, reason: string | RegExp) =>
  typeof reason === "string" ? expect(text).toContain(reason) : expect(text?.replace(/^[^:]+failed: /, "")).toMatch(reason);

describe("manual compaction whose summary fails", () => {
  it.each(FAULTS)("$name: nothing is written and the error says why", async ({ step, reason }) => {
    const s = await newSession({ compaction: { keepRecentTokens: 150 } });
    await seedHistory(s.id, 4);
    const before = await snapshot(s.id);
    summariesFail(step);

    const chunks = await readAll(await compactRun(s.id));
    await waitForRun(s.id);
    const end = dataOf<{ phase: string; errorMessage?: string; entryId?: string }>(chunks, "compaction").at(-1);
    expect(end?.phase).toBe("end");
    expect(end?.entryId).toBeUndefined();
    expect(end?.errorMessage).toMatch(/^Summarization failed: /);
    matches(end?.errorMessage, reason);
    expect(dataOf<{ message: string }>(chunks, "error")).toEqual([{ message: end?.errorMessage, code: "failed" }]);
    expect(dataOf(chunks, "entry")).toEqual([]);

    expect(await snapshot(s.id)).toEqual(before);
    expect(summaryKinds(await storedEntries(s.id))).toEqual([]);
  });

  it("after a failure, compacting again works", async () => {
    const s = await newSession({ compaction: { keepRecentTokens: 150 } });
    await seedHistory(s.id, 4);
    summariesFail({ kind: "error", status: 503, message: "try later" });
    expect(dataOf(await readAll(await compactRun(s.id)), "error")).toHaveLength(1);
    h.fake.setDefault(echoResponder);
    const chunks = await readAll(await compactRun(s.id));
    expect(dataOf(chunks, "error")).toEqual([]);
    expect(summaryKinds(await storedEntries(s.id)).map((e) => e.type)).toEqual(["compaction"]);
  });
});

describe("a branch summary that fails while navigating", () => {
  it.each(FAULTS)("$name: no branch_summary entry, the leaf stays, the error says why", async ({ step, reason }) => {
    const s = await newSession();
    const [, a0] = await seedHistory(s.id, 3, 60);
    const before = await snapshot(s.id);
    summariesFail(step);

    const chunks = await readAll(await navigate(s.id, { targetId: a0!.id, summarize: true }));
    await waitForRun(s.id);
    const end = dataOf<{ phase: string; errorMessage?: string; entryId?: string }>(chunks, "branchSummary").at(-1);
    expect(end?.phase).toBe("end");
    expect(end?.entryId).toBeUndefined();
    expect(end?.errorMessage).toMatch(/^Branch summary failed: /);
    expect(end?.errorMessage).toMatch(/Nothing was saved and you are still at the same point; try again, or move without a summary\.$/);
    matches(end?.errorMessage?.replace(/\. Nothing was saved.*$/, ""), reason);
    expect(dataOf<{ message: string }>(chunks, "error")).toEqual([{ message: end?.errorMessage, code: "failed" }]);
    // Not moved: no navigated part, no saved entry.
    expect(dataOf(chunks, "navigated")).toEqual([]);
    expect(dataOf(chunks, "entry")).toEqual([]);

    expect(await snapshot(s.id)).toEqual(before);
    expect(summaryKinds(await storedEntries(s.id))).toEqual([]);
  });

  it("after a failure, moving without a summary still works", async () => {
    const s = await newSession();
    const [, a0] = await seedHistory(s.id, 3, 60);
    summariesFail({ kind: "garbage" });
    await readAll(await navigate(s.id, { targetId: a0!.id, summarize: true }));
    const chunks = await readAll(await navigate(s.id, { targetId: a0!.id, summarize: false }));
    expect(dataOf(chunks, "error")).toEqual([]);
    expect((await findSessionMeta({ id: s.id }))?.leafId).toBe(a0!.id);
  });
});
