/**
 * Arbor's own compaction calls are counted in the usage ledger (docs/usage.md): a manual
 * compaction over HTTP against the fake OpenAI-compatible server records the summary calls'
 * usage and model on the compaction entry, and the ledger prices it (here with the user's price
 * for the fake model, which no catalogue knows).
 */
import { describe, expect, it } from "vitest";
import type { CompactionEntry, SessionEntry } from "@/lib/session/types";
import { setPriceOverride, sessionUsage } from "@/lib/db";
import { useTestDatabase } from "@/test/db";
import { looksLikeSummarization } from "@/test/fake-llm-server";
import { compactRun, MODEL_ID, newSession, readAll, seedHistory, storedEntries, useHarness } from "@/test/chat-harness";

useTestDatabase();
const h = useHarness();

describe("a compaction's own model calls in the ledger", () => {
  it("records the summary calls' tokens on the compaction entry, and the ledger counts and prices them", async () => {
    const s = await newSession({ compaction: { keepRecentTokens: 150 } });
    await seedHistory(s.id, 4);
    // $1 per million input tokens, $2 per million output tokens: 1 and 2 millionths per token.
    await setPriceOverride({ model: MODEL_ID, input: 1_000_000, output: 2_000_000 });
    h.fake.setDefault(() => ({ text: "## Goal\nThe summary.", usage: { promptTokens: 5000, completionTokens: 300 } }));
    const before = h.fake.requests.length;
    await readAll(await compactRun(s.id));
    const calls = h.fake.requests.slice(before).filter(looksLikeSummarization).length;
    expect(calls).toBeGreaterThanOrEqual(1);

    const entry = (await storedEntries(s.id)).find((e): e is CompactionEntry & SessionEntry => e.type === "compaction");
    expect(entry?.usage).toMatchObject({ input: calls * 5000, output: calls * 300 });
    expect(entry).toMatchObject({ provider: "openai-compatible", model: MODEL_ID });

    const usage = await sessionUsage({ sessionId: s.id });
    const row = usage.rows.find((r) => r.kind === "compaction");
    expect(row).toMatchObject({ entryId: entry!.id, input: calls * 5000, output: calls * 300, model: MODEL_ID, priceSource: "override" });
    expect(row?.recordedCostMicros).toBe(calls * (5000 * 1 + 300 * 2));
  });
});
