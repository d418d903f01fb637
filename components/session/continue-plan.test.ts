/** What "Continue from here" promises (session-engine.md §11.4), as the dialog words it. */
import { describe, expect, it } from "vitest";
import type { SkeletonEntry } from "@/lib/session-view/tree-skeleton";
import { resolveSkeleton } from "@/lib/session-view/skeleton-resolve";
import { customMessageEntry, thinkingEntry } from "@/test/session-factories";
import { reply, user } from "@/test/tree-sessions";
import { continuePlan, continueWords } from "./continue-plan";

/** u1 → a1 → u2 → a2 → u3 → a3 (leaf); a1 → u2b → a2b (side branch). */
function session(): Map<string, SkeletonEntry> {
  const rows = resolveSkeleton([
    user("u1", null, "First idea"),
    reply("a1", "u1", "Parsing works."),
    user("u2", "a1", "Second idea"),
    reply("a2", "u2"),
    user("u2b", "a1", "Side idea"),
    reply("a2b", "u2b"),
    user("u3", "a2", "Third idea"),
    reply("a3", "u3"),
    thinkingEntry("th", "a3", "high", {}),
    customMessageEntry("cm", "a3", "note", "a note", true, {}),
  ]);
  return new Map(rows.map((r) => [r.id, r]));
}

describe("continuePlan", () => {
  it("a user message: the new branch starts after its parent, its text goes to the composer", () => {
    const plan = continuePlan(session(), "a3", "u2")!;
    expect(plan).toMatchObject({ editsTarget: true, leaving: 4 });
    expect(plan.after?.id).toBe("a1");
    expect(plan.branchPoint?.id).toBe("a1");
    const w = continueWords(plan, true);
    expect(w.where).toBe("The new branch starts after “assistant: Parsing works.”, just before “user: Second idea”.");
    expect(w.composer).toMatch(/^That message's text goes into the composer/);
    expect(w.left).toBe("The branch you are on now (4 entries after “assistant: Parsing works.”) stays in the tree, unchanged; nothing is deleted.");
    expect(w.summary).toBe(
      "A summary of the 4 entries you leave is attached after “assistant: Parsing works.”, where the new branch starts, so the model keeps what it learned.",
    );
  });

  it("a draft in the composer stays: the message's text is not put in it", () => {
    expect(continueWords(continuePlan(session(), "a3", "u2")!, false).composer).toMatch(/^The composer holds a draft, which stays/);
  });

  it("the first user message: a new root at the session start, the whole path left behind", () => {
    const plan = continuePlan(session(), "a3", "u1")!;
    expect(plan).toMatchObject({ after: null, branchPoint: null, leaving: 6 });
    const w = continueWords(plan, true);
    expect(w.where).toBe("The new branch starts at the session start, as a new root, just before “user: First idea”.");
    expect(w.left).toContain("(6 entries from the session start)");
    expect(w.summary).toContain("is attached at the session start, as a new root, where");
  });

  it("an assistant: it becomes the leaf, the composer is left alone", () => {
    const plan = continuePlan(session(), "a3", "a2b")!;
    expect(plan).toMatchObject({ editsTarget: false, leaving: 4 });
    expect(plan.after?.id).toBe("a2b");
    const w = continueWords(plan, true);
    expect(w.where).toBe("The new branch starts after “assistant: reply a2b”: your next message follows it.");
    expect(w.composer).toBe("The composer is left as it is.");
  });

  it("going ahead from an ancestor leaves nothing behind and offers no summary", () => {
    const plan = continuePlan(session(), "a1", "a2b")!;
    expect(plan.leaving).toBe(0);
    const w = continueWords(plan, true);
    expect(w.left).toBe("The current leaf lies on the way there: no branch is left behind.");
    expect(w.summary).toBeUndefined();
  });

  it("a custom message is edited like a user message; an unknown target has no plan", () => {
    expect(continuePlan(session(), "th", "cm")).toMatchObject({ editsTarget: true, leaving: 1 });
    expect(continuePlan(session(), "a3", "nope")).toBeNull();
  });
});
