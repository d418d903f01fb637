import { describe, expect, it } from "vitest";
import { assistantEntry, userEntry } from "@/test/session-factories";
import type { SessionEntry } from "@/lib/session/types";
import { compactionEffectText, nextPromptTokens } from "./compaction-effect";

const compaction = (id: string, tokensBefore: number) =>
  ({ type: "compaction", id, parentId: null, timestamp: "2025-01-01T00:00:00.000Z", summary: "s", firstKeptEntryId: "u1", tokensBefore }) as SessionEntry;

describe("what a compaction's card says", () => {
  it("takes the next reply's prompt (input + cache read + cache write) after the compaction, not one before it", () => {
    const path: SessionEntry[] = [
      assistantEntry("a0", null, "before", { usage: { input: 90_000, cacheRead: 90_000 } }),
      compaction("c1", 180_000),
      userEntry("u1", "c1", "next"),
      assistantEntry("a1", "u1", "empty usage", { usage: {} }),
      assistantEntry("a2", "a1", "after", { usage: { input: 800, cacheRead: 20_000, cacheWrite: 8000, output: 500 } }),
    ];
    expect(nextPromptTokens(path, 1)).toBe(28_800);
    expect(nextPromptTokens(path, 4)).toBeUndefined();
    expect(compactionEffectText({ tokensBefore: 180_000, call: { costMicros: 42_000, tokens: 12_300 }, nextPrompt: 28_800 })).toBe(
      "Cost $0.04 (12,300 tokens) · took 151,200 tokens off the next turn (180,000 → 28,800)",
    );
  });

  it("says when the price or the next turn is not known yet", () => {
    expect(compactionEffectText({ tokensBefore: 5000, call: { tokens: 700 } })).toBe("Price unknown (700 tokens) · the next turn's context is not known yet");
    expect(compactionEffectText({ tokensBefore: 5000 })).toMatch(/^Its cost is not recorded · /);
  });
});
