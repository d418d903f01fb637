import { describe, expect, it } from "vitest";
import { OVERFLOW_RECOVERY_FAILED } from "@/lib/agent/compaction-check";
import { setup } from "@/test/agent-harness";
import { words } from "@/test/compaction-helpers";
import { assistantEntry, BASE_TIME, compactionEntry, isoAt, userEntry } from "@/test/session-factories";
import type { AssistantMessage, SessionEntry } from "@/lib/session/types";

const OVERFLOW = "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.";

function history(): SessionEntry[] {
  return [
    userEntry("u0", null, words(100)),
    assistantEntry("a0", "u0", words(100), { usage: { input: 300, output: 100 } }),
    userEntry("u1", "a0", words(100)),
    assistantEntry("a1", "u1", words(100), { usage: { input: 600, output: 100 } }),
  ];
}

/** A reserve below the small test windows, so only overflows compact. */
const SMALL_RESERVE = { compaction: { reserveTokens: 1000 } };

const isErrorAssistant = (m: { role: string }) => m.role === "assistant" && (m as AssistantMessage).stopReason === "error";

describe("overflow recovery (session-engine.md §13.2 step 7, §13.3 with willRetry)", () => {
  it("recovers once: compaction, then the turn is retried without the error message", async () => {
    const { agent, store, model, ofType, delays } = setup({
      entries: history(),
      modelOptions: { contextWindow: 8192 },
      settings: { compaction: { keepRecentTokens: 50, reserveTokens: 1000 } },
    });
    model!.script({ stopReason: "error", errorMessage: OVERFLOW }, { text: "recovered" });

    const last = await agent.prompt("next");

    expect(last?.content).toEqual([{ type: "text", text: "recovered" }]);
    expect(ofType("auto_compaction_start")).toEqual([{ type: "auto_compaction_start", reason: "overflow" }]);
    expect(ofType("auto_compaction_end")[0]).toMatchObject({ aborted: false, willRetry: true });
    expect(ofType("auto_compaction_end")[0]?.result).toBeDefined();
    expect(ofType("auto_retry_start")).toHaveLength(0);
    expect(delays).toEqual([100]);

    // The error assistant stays stored; the compaction follows it; the retry is its child.
    const stored = store.getEntries().slice(-4);
    expect(stored.map((e) => (e.type === "message" ? e.message.role : e.type))).toEqual([
      "user",
      "assistant",
      "compaction",
      "assistant",
    ]);
    const errorEntry = stored[1]!;
    expect(errorEntry.type === "message" && errorEntry.message).toMatchObject({ stopReason: "error", errorMessage: OVERFLOW });
    expect(agent.getExcludedEntryIds().has(errorEntry.id)).toBe(true);

    // …but it is not sent again.
    expect(model!.requests).toHaveLength(2);
    expect(model!.requests[1]!.messages.some(isErrorAssistant)).toBe(false);
    expect(JSON.stringify(model!.requests[1]!.messages[0])).toContain("Recap follows.");
  });

  it("a second overflow in the same prompt ends with the exact failure message", async () => {
    const { agent, store, model, ofType } = setup({ entries: history(), modelOptions: { contextWindow: 8192 }, settings: SMALL_RESERVE });
    model!.script({ stopReason: "error", errorMessage: OVERFLOW }, { stopReason: "error", errorMessage: OVERFLOW });

    await agent.prompt("next");

    expect(ofType("auto_compaction_start")).toHaveLength(1);
    const ends = ofType("auto_compaction_end");
    expect(ends).toHaveLength(2);
    expect(ends[1]).toEqual({
      type: "auto_compaction_end",
      result: undefined,
      aborted: false,
      willRetry: false,
      errorMessage: OVERFLOW_RECOVERY_FAILED,
    });
    expect(OVERFLOW_RECOVERY_FAILED).toBe(
      "Context overflow recovery failed after one compact-and-retry attempt. Try reducing context or switching to a larger-context model.",
    );
    expect(model!.requests).toHaveLength(2);
    expect(store.getEntries().filter((e) => e.type === "compaction")).toHaveLength(1);
  });

  it("a new user prompt allows one more recovery", async () => {
    const { agent, model, ofType } = setup({ entries: history(), modelOptions: { contextWindow: 8192 }, settings: SMALL_RESERVE });
    model!.script(
      { stopReason: "error", errorMessage: OVERFLOW },
      { text: "recovered", usage: { input: 100 } },
      { stopReason: "error", errorMessage: OVERFLOW },
      { text: "recovered again", usage: { input: 100 } },
    );
    await agent.prompt("one");
    await agent.prompt("two");
    expect(ofType("auto_compaction_start").map((e) => e.reason)).toEqual(["overflow", "overflow"]);
    expect(ofType("auto_compaction_end").every((e) => e.errorMessage === undefined)).toBe(true);
  });

  it("detects a silent overflow (usage.input > contextWindow) on a successful response", async () => {
    const { agent, model, ofType } = setup({ entries: history(), modelOptions: { contextWindow: 10_000 }, settings: SMALL_RESERVE });
    model!.script({ text: "accepted silently", usage: { input: 12_000, output: 10 } }, { text: "after compaction" });

    await agent.prompt("next");

    expect(ofType("auto_compaction_start")).toEqual([{ type: "auto_compaction_start", reason: "overflow" }]);
    expect(model!.requests).toHaveLength(2);
    const resent = JSON.stringify(model!.requests[1]!.messages);
    expect(resent).not.toContain("accepted silently");
  });

  it("an overflow from another model is not recovered (sameModel, step 5)", async () => {
    const { agent, model, ofType } = setup({ entries: history(), modelOptions: { contextWindow: 8192 }, settings: SMALL_RESERVE });
    model!.script(() => ({ stopReason: "error", errorMessage: OVERFLOW }));
    const original = model!.stream.bind(model!);
    model!.stream = async (req) => ({ ...(await original(req)), provider: "openai", model: "gpt-4o" });
    await agent.prompt("next");
    expect(ofType("auto_compaction_start")).toHaveLength(0);
  });
});

describe("errorIsFromBeforeCompaction uses the LATEST compaction on the branch (session-engine.md §13.2 step 6, §18.6)", () => {
  /** c0 (5 s) → u1 → overflow error a1 (10 s) → c1 (20 s), optionally. */
  function entries(withLatest: boolean): SessionEntry[] {
    const out: SessionEntry[] = [
      userEntry("u0", null, words(100), { timestamp: isoAt(1) }),
      assistantEntry("a0", "u0", words(100), { usage: { input: 300 } }, { timestamp: isoAt(2) }),
      compactionEntry("c0", "a0", "First summary", "a0", 400, { timestamp: isoAt(5) }),
      userEntry("u1", "c0", words(100), { timestamp: isoAt(9) }),
      assistantEntry(
        "a1",
        "u1",
        "",
        { stopReason: "error", errorMessage: OVERFLOW, timestamp: BASE_TIME + 10_000 },
        { timestamp: isoAt(10) },
      ),
    ];
    if (withLatest) out.push(compactionEntry("c1", "a1", "Second summary", "u1", 500, { timestamp: isoAt(20) }));
    return out;
  }

  it("ignores an overflow error older than the latest compaction (older than the first one would not)", async () => {
    const { agent, model, ofType } = setup({ entries: entries(true), modelOptions: { contextWindow: 8192 }, settings: SMALL_RESERVE });
    model!.script({ text: "fine" });
    await agent.prompt("next");
    expect(ofType("auto_compaction_start")).toHaveLength(0);
    expect(model!.requests).toHaveLength(1);
  });

  it("control: without the later compaction the same error triggers recovery before the prompt", async () => {
    const { agent, model, ofType } = setup({ entries: entries(false), modelOptions: { contextWindow: 8192 }, settings: SMALL_RESERVE });
    model!.script({ text: "fine" });
    await agent.prompt("next");
    expect(ofType("auto_compaction_start")).toEqual([{ type: "auto_compaction_start", reason: "overflow" }]);
    // The pre-prompt check continues nothing: the user's prompt is the one call made.
    expect(model!.requests).toHaveLength(1);
    expect(model!.requests[0]!.messages.some(isErrorAssistant)).toBe(false);
    expect(model!.requests[0]!.messages.at(-1)).toMatchObject({ role: "user", content: "next" });
  });
});
