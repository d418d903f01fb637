/** Which path entries the chat shows, from the skeleton (ui.md "Chat", session-engine.md §2 step 7). */
import { describe, expect, it } from "vitest";
import { assistantEntry, chain, compactionEntry, customMessageEntry, labelEntry, userEntry } from "@/test/session-factories";
import { skeletonFacts } from "@/lib/session/tree-skeleton";
import { type ChatPlanItem, chatPlan, firstShownIndex } from "./chat-plan";

describe("chatPlan", () => {
  it("lists readable entries only, marking those a compaction summarised away", () => {
    const path = chain(
      userEntry("u1", null, "one"),
      assistantEntry("a1", null, "A"),
      labelEntry("l", null, "u1", "x"),
      customMessageEntry("hidden", null, "note", "n", false),
      userEntry("u2", null, "two"),
      compactionEntry("c", null, "S", "u2", 5000),
      assistantEntry("a2", null, "B"),
    );
    expect(chatPlan(path.map(skeletonFacts))).toEqual([
      { id: "u1", inContext: false },
      { id: "a1", inContext: false },
      { id: "u2", inContext: true },
      { id: "c", inContext: true },
      { id: "a2", inContext: true },
    ]);
  });
});

describe("firstShownIndex", () => {
  const plan: ChatPlanItem[] = Array.from({ length: 100 }, (_, i) => ({ id: `e${i}`, inContext: true }));
  it("shows the newest page, and reaches back to a selected entry", () => {
    expect(firstShownIndex(plan, 40)).toBe(60);
    expect(firstShownIndex(plan, 40, "e10")).toBe(10);
    expect(firstShownIndex(plan, 40, "e90")).toBe(60);
    expect(firstShownIndex(plan, 500)).toBe(0);
  });
});
