/**
 * Pins (session-engine.md §19): the cut point, the preparation and the context with pinned entries, and the
 * contract's exact results without them.
 */
import { describe, expect, it } from "vitest";
import { compact } from "@/lib/compaction/compact";
import { findCutPoint } from "@/lib/compaction/cut-point";
import { prepareCompaction } from "@/lib/compaction/prepare";
import type { SummarizeRequest } from "@/lib/compaction/summarize-types";
import { TEST_PROMPTS, conversation, ent, linkAll, msg, settings, user, words } from "@/test/compaction-helpers";
import { estimateTokens } from "@/lib/compaction/tokens";
import { sourcedContext } from "@/lib/inspector/sources";
import { buildSessionContext } from "@/lib/session/context";
import { PINNED_HEADER, pinEntryFields, pinnedIds, pinnedMessageOf } from "@/lib/session/pins";
import { buildTree } from "@/test/session-factories";
import type { AgentMessage, CustomMessage, SessionEntry, UserMessage } from "@/lib/session/types";

const tokens = (messages: AgentMessage[]) => messages.reduce((n, m) => n + estimateTokens(m), 0);
const messageOf = (e: SessionEntry | undefined) => (e?.type === "message" ? e.message : undefined);
const summarize = async (req: SummarizeRequest) => ({ stopReason: "stop" as const, text: `${req.kind} summary` });

/** u0 a0 … u4 a4, 100 tokens each, with a distinctive instruction in u1. */
function session(): SessionEntry[] {
  const entries = conversation(5, 100);
  entries[2] = msg("u1", user(`Always run \`npm run lint\` before committing. ${words(90)}`));
  return linkAll(entries);
}

describe("pin state (§19)", () => {
  it("the last pin entry per target wins, over the whole session", () => {
    const pins = [
      { ...ent("custom", "p1"), ...pinEntryFields("u1", true) },
      { ...ent("custom", "p2"), ...pinEntryFields("a2", true) },
      { ...ent("custom", "p3"), ...pinEntryFields("u1", false) },
      ent("custom", "other", { customType: "someone.else", data: { targetId: "a3", pinned: true } }),
    ];
    expect([...pinnedIds(pins)]).toEqual(["a2"]);
  });
});

describe("without pins the contract's results are exact (§5.3, §5.4, §2)", () => {
  it("findCutPoint and prepareCompaction give the same results with no or empty pins", () => {
    const path = session();
    const plain = findCutPoint(path, 0, path.length, 400);
    expect(plain).toEqual({ firstKeptEntryIndex: 6, turnStartIndex: -1, isSplitTurn: false });
    expect(findCutPoint(path, 0, path.length, 400, { pinned: new Set(), carriedTokens: 500 })).toEqual(plain);
    const prep = prepareCompaction(path, settings({ keepRecentTokens: 400 }));
    expect(prep?.firstKeptEntryId).toBe("u3");
    expect(prepareCompaction(path, settings({ keepRecentTokens: 400 }), { pinnedIds: new Set() })).toEqual(prep);
    // A pin on an entry that is not on the path changes nothing either.
    expect(prepareCompaction(path, settings({ keepRecentTokens: 400 }), { pinnedIds: new Set(["elsewhere"]) })).toEqual(prep);
    expect(prep).not.toHaveProperty("pinnedEntryIds");
  });
});

describe("prepareCompaction with a pinned entry before the cut (§19)", () => {
  const path = session();
  const pinned = pinnedMessageOf(path[2]!, messageOf(path[2])!);
  const prep = prepareCompaction(path, settings({ keepRecentTokens: 400 }), { pinnedIds: new Set(["u1"]) });

  it("never summarizes the pinned entry and carries it instead", () => {
    expect(prep?.pinnedEntryIds).toEqual(["u1"]);
    expect(prep?.pinnedMessages).toEqual([pinned]);
    const summarized = [...(prep?.messagesToSummarize ?? []), ...(prep?.turnPrefixMessages ?? [])];
    expect(summarized).not.toContain(messageOf(path[2]));
    expect(summarized).toContain(messageOf(path[0]));
  });

  it("charges the pinned entry to the kept budget, so fewer recent messages are kept", () => {
    const carried = estimateTokens(pinned);
    expect(carried).toBeGreaterThan(100);
    // Without the pin u3 a3 u4 a4 (400 tokens) are kept; with it the walk stops one message
    // earlier (a3: 300 + carried >= 400), so the cut lands on a3, a split turn.
    expect(prep?.firstKeptEntryId).toBe("a3");
    expect(prep?.isSplitTurn).toBe(true);
    expect(tokens(prep?.recentMessages ?? []) + carried).toBeGreaterThanOrEqual(400);
    expect(tokens(prep?.recentMessages ?? [])).toBe(300);
  });

  it("a pinned entry inside the kept part is kept in place, not carried twice", () => {
    const p = prepareCompaction(path, settings({ keepRecentTokens: 400 }), { pinnedIds: new Set(["a4"]) });
    expect(p?.pinnedEntryIds).toBeUndefined();
    expect(p?.recentMessages.at(-1)).toBe(messageOf(path[9]));
    // a4 is charged once: the cut is the same as without pins.
    expect(p?.firstKeptEntryId).toBe("u3");
  });
});

describe("context and two compactions with a pin (§19)", () => {
  it("the pinned message is carried verbatim right after the summary, through two compactions", async () => {
    const tree = buildTree(session());
    tree.appendPinChange("u1", true);
    expect(() => tree.appendPinChange("nope", true)).toThrow("Entry nope not found");
    const s = settings({ keepRecentTokens: 400 });
    const compactNow = async () => {
      const prep = prepareCompaction(tree.getBranch(), s, { pinnedIds: pinnedIds(tree.getEntries()) });
      if (!prep) throw new Error("nothing to compact");
      const r = await compact(prep, { summarize, prompts: TEST_PROMPTS });
      return tree.appendCompaction(r.summary, r.shortSummary, r.firstKeptEntryId, r.tokensBefore, r.details, false, undefined, r.pinnedEntryIds);
    };
    const original = tree.getEntry("u1");
    const verbatim = (messageOf(original) as UserMessage).content as string;

    const first = await compactNow();
    expect(tree.getEntry(first)).toMatchObject({ pinnedEntryIds: ["u1"] });
    const carriedOnce = tree.buildContext().messages;
    expect(carriedOnce[0]?.role).toBe("compactionSummary");
    const pin = carriedOnce[1] as CustomMessage;
    expect(pin).toMatchObject({ role: "custom", customType: "arbor.pinned", details: { entryId: "u1" } });
    expect(pin.content).toEqual([{ type: "text", text: `${PINNED_HEADER} (user message u1):` }, { type: "text", text: verbatim }]);

    for (let i = 5; i < 9; i++) {
      tree.appendMessage(user(words(100)));
    }
    const second = await compactNow();
    expect(tree.getEntry(second)).toMatchObject({ pinnedEntryIds: ["u1"] });
    const carriedTwice = tree.buildContext().messages;
    expect(carriedTwice[1]).toEqual(pin);
    expect(carriedTwice.filter((m) => m.role === "custom")).toHaveLength(1);
    // The inspector attributes the carried message to the pinned entry.
    const sourced = sourcedContext(tree.getBranch(), TEST_PROMPTS);
    expect(sourced.map((m) => m.sourceEntryId).slice(0, 2)).toEqual([second, "u1"]);
  });

  it("a compaction without pinnedEntryIds builds exactly the §2 context", () => {
    const entries = linkAll([
      ...session(),
      ent("compaction", "c", { summary: "S", firstKeptEntryId: "u3", tokensBefore: 9 }),
    ]);
    const messages = buildSessionContext(entries).messages;
    expect(messages.map((m) => m.role)).toEqual(["compactionSummary", "user", "assistant", "user", "assistant"]);
    expect(messages[1]).toBe(messageOf(entries[6]));
  });
});
