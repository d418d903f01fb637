import { describe, expect, it } from "vitest";
import {
  DEFAULT_PRUNE_CONFIG,
  pruneNotice,
  pruneToolOutputs,
  restorePrunedToolOutputs,
  restorePrunedToolResult,
} from "@/lib/compaction/pruning";
import { TEST_PROMPTS, assistant, call, img, linked, msg, toolResult, user, words } from "@/test/compaction-helpers";
import { convertToLlm } from "@/lib/session/file/convert";
import type { SessionEntry, ToolResultMessage } from "@/lib/session/types";

const NOW = 1_700_000_000_000;
const noticeTokens = (t: number) => Math.ceil(pruneNotice(t).length / 4);

/** Tool results oldest → newest with the given token sizes (and optional tool names). */
function results(sizes: Array<number | [number, string]>): SessionEntry[] {
  const out: SessionEntry[] = [];
  sizes.forEach((size, i) => {
    const [tokens, toolName] = typeof size === "number" ? [size, "bash"] : size;
    out.push(msg(`c${i}`, assistant("", { calls: [call(`k${i}`, toolName)] })));
    out.push(msg(`r${i}`, toolResult(`k${i}`, words(tokens), { toolName })));
  });
  return linked(...out);
}

const resultOf = (entries: SessionEntry[], id: string): ToolResultMessage => {
  const e = entries.find((x) => x.id === id);
  if (e?.type !== "message" || e.message.role !== "toolResult") throw new Error(`no tool result ${id}`);
  return e.message;
};

describe("pruneToolOutputs (session-engine.md §8)", () => {
  it("has the spec defaults", () => {
    expect(DEFAULT_PRUNE_CONFIG).toEqual({ protectTokens: 40_000, minimumSavings: 20_000, protectedTools: ["skill", "read"] });
  });

  it("protects the newest ~40k tokens and prunes older results in place with one timestamp", () => {
    const entries = results([10_000, 10_000, 15_000, 20_000, 30_000]);
    const originalR0 = resultOf(entries, "r0").content;
    const out = pruneToolOutputs(entries, DEFAULT_PRUNE_CONFIG, NOW);
    const saved = [10_000, 10_000, 15_000].reduce((n, t) => n + t - noticeTokens(t), 0);
    expect(out.prunedCount).toBe(3);
    expect(out.tokensSaved).toBe(saved);
    expect(out.pruned.map((p) => [p.entryId, p.index])).toEqual([
      ["r0", 1],
      ["r1", 3],
      ["r2", 5],
    ]);
    expect(out.pruned[0]?.originalContent).toBe(originalR0);
    expect(resultOf(entries, "r0")).toMatchObject({ content: [{ type: "text", text: "[Output truncated - 10000 tokens]" }], prunedAt: NOW });
    expect(resultOf(entries, "r2")).toMatchObject({ content: [{ type: "text", text: "[Output truncated - 15000 tokens]" }], prunedAt: NOW });
    // The newest 30k + 20k are inside the protected window (checked before adding).
    expect(resultOf(entries, "r3").prunedAt).toBeUndefined();
    expect(resultOf(entries, "r4").prunedAt).toBeUndefined();
  });

  it("never prunes protected tools (read, skill) but counts them towards the window", () => {
    const entries = results([[30_000, "read"], 25_000, [30_000, "skill"], 45_000]);
    const out = pruneToolOutputs(entries, DEFAULT_PRUNE_CONFIG, NOW);
    expect(out.pruned.map((p) => p.entryId)).toEqual(["r1"]);
    expect(resultOf(entries, "r0").prunedAt).toBeUndefined();
    expect(resultOf(entries, "r2").prunedAt).toBeUndefined();
  });

  it("counts already-pruned results towards the window and leaves them alone", () => {
    const entries = results([30_000, 40_000]);
    const newest = resultOf(entries, "r1");
    newest.prunedAt = 1;
    const out = pruneToolOutputs(entries, DEFAULT_PRUNE_CONFIG, NOW);
    // acc is 40k after the already-pruned result, so the 30k one is no longer protected.
    expect(out.pruned.map((p) => p.entryId)).toEqual(["r0"]);
    expect(newest.prunedAt).toBe(1);
    expect(newest.content).toEqual([{ type: "text", text: words(40_000) }]);
  });

  it("changes nothing when the savings are below minimumSavings", () => {
    const entries = results([19_000, 45_000]);
    const before = structuredClone(entries);
    expect(pruneToolOutputs(entries, DEFAULT_PRUNE_CONFIG, NOW)).toEqual({ prunedCount: 0, tokensSaved: 0, pruned: [] });
    expect(entries).toEqual(before);
  });

  it("changes nothing without candidates, and ignores non-toolResult messages", () => {
    const entries = linked(msg("u", user(words(500_000))), ...results([39_000]));
    expect(pruneToolOutputs(entries, DEFAULT_PRUNE_CONFIG, NOW).prunedCount).toBe(0);
    expect(pruneToolOutputs([], DEFAULT_PRUNE_CONFIG, NOW).prunedCount).toBe(0);
  });

  it("charges images at 4800 chars each when sizing a result", () => {
    const entries = linked(
      msg("r0", toolResult("k0", [img(), img(), img(), img(), img(), img(), img(), img(), img(), img()])),
      ...results([40_000]),
    );
    const out = pruneToolOutputs(entries, { protectTokens: 40_000, minimumSavings: 1, protectedTools: [] }, NOW);
    expect(out.prunedCount).toBe(1);
    expect(out.tokensSaved).toBe(12_000 - noticeTokens(12_000));
  });

  it("honours a custom config", () => {
    const entries = results([100, 100, 100]);
    const out = pruneToolOutputs(entries, { protectTokens: 150, minimumSavings: 50, protectedTools: [] }, NOW);
    expect(out.pruned.map((p) => p.entryId)).toEqual(["r0"]);
  });

  it("a pruned result reaches the LLM as its notice only (session-engine.md §3)", () => {
    const entries = results([30_000, 45_000]);
    pruneToolOutputs(entries, DEFAULT_PRUNE_CONFIG, NOW);
    const [converted] = convertToLlm([resultOf(entries, "r0")], TEST_PROMPTS);
    expect(converted?.content).toEqual([{ type: "text", text: "[Output truncated - 30000 tokens]" }]);
  });

  it("can be undone from the returned originals", () => {
    const entries = results([30_000, 45_000]);
    const before = structuredClone(entries);
    const out = pruneToolOutputs(entries, DEFAULT_PRUNE_CONFIG, NOW);
    expect(out.prunedCount).toBe(1);
    expect(restorePrunedToolOutputs(entries, out.pruned)).toBe(1);
    expect(entries).toEqual(before);
    expect("prunedAt" in resultOf(entries, "r0")).toBe(false);
  });

  it("restore skips records that no longer line up; single-message restore works", () => {
    const entries = results([30_000, 45_000]);
    const out = pruneToolOutputs(entries, DEFAULT_PRUNE_CONFIG, NOW);
    const record = out.pruned[0];
    if (!record) throw new Error("expected a pruned record");
    expect(restorePrunedToolOutputs(entries, [{ ...record, entryId: "other" }])).toBe(0);
    const message = resultOf(entries, "r0");
    restorePrunedToolResult(message, record.originalContent);
    expect(message.prunedAt).toBeUndefined();
    expect(message.content).toBe(record.originalContent);
  });
});
