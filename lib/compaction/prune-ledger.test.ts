/**
 * The prune ledger must decide exactly what planPrune decides (session-engine.md §8), on any
 * branch and after any sequence of appends, and its reuse must never leak one branch's sums into
 * another's.
 */
import { describe, expect, it } from "vitest";
import { extendLedger, ledgerWouldPrune, type PruneLedger } from "@/lib/compaction/prune-ledger";
import { DEFAULT_PRUNE_CONFIG, type PruneConfig, planPrune } from "@/lib/compaction/pruning";
import { createRng } from "@/lib/random";
import type { SessionEntry, ToolResultMessage } from "@/lib/session/types";
import { messageEntry, userEntry } from "@/test/session-factories";

const TOOLS = ["bash", "read", "edit", "skill"];

function result(id: string, parentId: string | null, chars: number, toolName: string, pruned: boolean): SessionEntry {
  const message: ToolResultMessage = {
    role: "toolResult",
    toolCallId: `c${id}`,
    toolName,
    content: [{ type: "text", text: "x".repeat(chars) }],
    isError: false,
    timestamp: 0,
    ...(pruned ? { prunedAt: 1 } : {}),
  };
  return messageEntry(id, parentId, message);
}

/** A random next entry: mostly tool results of random size, some pruned or protected. */
function randomEntry(rand: () => number, id: string, parentId: string | null, scale: number): SessionEntry {
  if (rand() < 0.25) return userEntry(id, parentId, "go on");
  const chars = rand() < 0.1 ? 0 : Math.floor(rand() * scale);
  return result(id, parentId, chars, TOOLS[Math.floor(rand() * TOOLS.length)]!, rand() < 0.15);
}

const decides = (branch: SessionEntry[], config: PruneConfig) => planPrune(branch, config).candidates.length > 0;

describe("prune ledger", () => {
  it("decides as planPrune does on small hand-made branches, at the protect boundary too", () => {
    const config: PruneConfig = { protectTokens: 100, minimumSavings: 10, protectedTools: ["read"] };
    // 400 chars = 100 tokens: the newest result alone fills the protected window.
    const old = result("1", null, 400, "bash", false);
    const newest = result("2", "1", 400, "bash", false);
    expect(ledgerWouldPrune(extendLedger([old], config.protectedTools), config)).toBe(false);
    expect(ledgerWouldPrune(extendLedger([old, newest], config.protectedTools), config)).toBe(true);
    expect(decides([old, newest], config)).toBe(true);
    // One token short of the window: the older result stays protected.
    const almost = result("3", "1", 396, "bash", false);
    expect(ledgerWouldPrune(extendLedger([old, almost], config.protectedTools), config)).toBe(false);
    expect(decides([old, almost], config)).toBe(false);
    // A protected tool or an already-pruned result is never a candidate.
    const read = result("4", null, 400, "read", false);
    const pruned = result("5", null, 400, "bash", true);
    for (const first of [read, pruned]) {
      expect(ledgerWouldPrune(extendLedger([first, newest], config.protectedTools), config)).toBe(false);
      expect(decides([first, newest], config)).toBe(false);
    }
  });

  it("matches planPrune after every append of seeded random branches, with and without reuse", () => {
    const configs: PruneConfig[] = [
      { ...DEFAULT_PRUNE_CONFIG, protectTokens: 2_000, minimumSavings: 1_000 },
      { protectTokens: 0, minimumSavings: 0, protectedTools: ["skill"] },
      { protectTokens: 500, minimumSavings: 0, protectedTools: [] },
    ];
    const outcomes = { prune: 0, keep: 0 };
    for (let seed = 1; seed <= 30; seed++) {
      const rand = createRng(seed);
      const config = configs[seed % configs.length]!;
      const branch: SessionEntry[] = [];
      let ledger: PruneLedger | undefined;
      for (let step = 0; step < 80; step++) {
        // Sometimes the leaf moves back a few entries first (a retry): the next ones are siblings.
        if (branch.length > 1 && rand() < 0.1) branch.length -= 1 + Math.floor(rand() * Math.min(branch.length - 1, 12));
        branch.push(randomEntry(rand, `${seed}-${step}`, branch.at(-1)?.id ?? null, 1_600));
        // Sometimes several appends land between two checks.
        if (rand() < 0.3) continue;
        ledger = extendLedger(branch, config.protectedTools, undefined, ledger);
        const expected = decides(branch, config);
        outcomes[expected ? "prune" : "keep"]++;
        expect(ledgerWouldPrune(ledger, config), `seed ${seed} step ${step}`).toBe(expected);
        expect(ledgerWouldPrune(extendLedger(branch, config.protectedTools), config)).toBe(expected);
      }
    }
    // Both outcomes are exercised many times.
    expect(outcomes.prune).toBeGreaterThan(100);
    expect(outcomes.keep).toBeGreaterThan(100);
  });

  it("cuts its sums when the leaf moves back among the recent entries, and walks again when it moves further", () => {
    const rand = createRng(7);
    const branch: SessionEntry[] = [];
    for (let i = 0; i < 600; i++) branch.push(randomEntry(rand, `e${i}`, branch.at(-1)?.id ?? null, 2_000));
    const config = { ...DEFAULT_PRUNE_CONFIG, protectTokens: 20_000, minimumSavings: 2_000 };
    const full = extendLedger(branch, config.protectedTools);
    for (const length of [599, 500, 400, 345, 344, 100, 1]) {
      const prefix = branch.slice(0, length);
      const cut = extendLedger(prefix, config.protectedTools, undefined, full);
      const fresh = extendLedger(prefix, config.protectedTools);
      expect(cut.results, `length ${length}`).toBe(fresh.results);
      expect(cut.tokens.slice(0, cut.results + 1)).toEqual(fresh.tokens);
      expect(ledgerWouldPrune(cut, config)).toBe(decides(prefix, config));
      // Within the last 256 entries the sums are reused as they are; further back, walked again.
      expect(cut.tokens === full.tokens, `length ${length}`).toBe(length > 600 - 256);
      // A cut ledger extends like any other.
      const onward = [...prefix, result(`n${length}`, prefix.at(-1)!.id, 4_000, "bash", false)];
      expect(ledgerWouldPrune(extendLedger(onward, config.protectedTools, undefined, cut), config)).toBe(decides(onward, config));
    }
    // A shorter branch that is not a prefix (a sibling of a recent entry) is walked again.
    const sibling = [...branch.slice(0, 550), userEntry("s", branch[549]!.id, "elsewhere")];
    const other = extendLedger(sibling, config.protectedTools, undefined, full);
    expect(other.tokens).not.toBe(full.tokens);
    expect(other.results).toBe(extendLedger(sibling, config.protectedTools).results);
  });

  it("starts again on a branch that does not continue the covered one, and keeps an earlier ledger valid", () => {
    const config: PruneConfig = { protectTokens: 100, minimumSavings: 10, protectedTools: [] };
    const root = userEntry("r", null, "start");
    const big = result("a", "r", 400, "bash", false);
    const base = extendLedger([root, big], config.protectedTools);
    // Extended along one branch (the newest result pushes `big` out of the protected window)…
    const onward = extendLedger([root, big, result("b", "a", 400, "bash", false)], config.protectedTools, undefined, base);
    expect(ledgerWouldPrune(onward, config)).toBe(true);
    // …the earlier ledger still decides for its own branch…
    expect(ledgerWouldPrune(base, config)).toBe(false);
    // …and extending it along a sibling branch does not see the first branch's result.
    const sibling = extendLedger([root, big, userEntry("c", "a", "other way")], config.protectedTools, undefined, base);
    expect(ledgerWouldPrune(sibling, config)).toBe(false);
    expect(ledgerWouldPrune(onward, config)).toBe(true);
    // Copies of the same entries continue the ledger (the read model commits copies).
    const copies = extendLedger([{ ...root }, { ...big }, result("b", "a", 400, "bash", false)], config.protectedTools, undefined, base);
    expect(copies.results).toBe(2);
    expect(ledgerWouldPrune(copies, config)).toBe(true);
    // A different branch at the same length is rebuilt, not reused.
    const other = extendLedger([root, result("d", "r", 10, "bash", false)], config.protectedTools, undefined, base);
    expect(other.results).toBe(1);
    expect(other.tokens[1]).toBeLessThan(base.tokens[1]!);
  });
});
