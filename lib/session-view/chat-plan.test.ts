/** Which path entries the chat shows, from the skeleton (ui.md "Chat", session-engine.md §2 step 7). */
import { describe, expect, it } from "vitest";
import { assistantEntry, chain, compactionEntry, customMessageEntry, labelEntry, userEntry } from "@/test/session-factories";
import { generateSession } from "@/test/generators/session";
import { chatFacts, FLAG, skeletonFacts } from "@/lib/session-view/tree-skeleton";
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

  it("plans the same from chatFacts (no row texts) as from the skeleton rows", () => {
    const { entries } = generateSession({ seed: 5, entries: 2000, compactions: true, labels: 10 });
    const hidden = customMessageEntry("hidden", entries.at(-1)!.id, "note", "n", false);
    const path = [...entries, hidden];
    expect(path.map(chatFacts).some((f) => f.type === "compaction")).toBe(true);
    expect(chatPlan(path.map(chatFacts))).toEqual(chatPlan(path.map(skeletonFacts)));
    expect(path.map((e) => chatFacts(e).flags)).toEqual(path.map((e) => skeletonFacts(e).flags & FLAG.notInChat));
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
