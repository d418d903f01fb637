/**
 * "Sending will first compact" is said before a send that will (ui.md context meter): the forecast
 * replays session-engine.md §13.1 / §13.2's pre-prompt check, and agrees with the inspector's
 * next-turn preview (lib/inspector/preview.ts), which replays it on its own.
 */
import { describe, expect, it } from "vitest";
import { previewNextTurn } from "@/lib/inspector/preview";
import { buildSessionContext } from "@/lib/session/context";
import { generateSession } from "@/test/generators/session";
import { SessionTree } from "@/lib/session/tree/tree";
import type { SessionEntry } from "@/lib/session/types";
import { assistant, call, ent, linked, msg, settings, T0, TEST_PROMPTS, toolResult, user, words } from "@/test/compaction-helpers";
import { compactionForecast, nextSendCompacts, nextSendPrunes } from "./compaction-forecast";

const forecastOf = (path: SessionEntry[]) => compactionForecast(path, buildSessionContext(path).messages);
const opus = { provider: "anthropic", id: "test-model" };

describe("compactionForecast + nextSendCompacts", () => {
  const path = linked(msg("u1", user("hello")), msg("a1", assistant("hi", { usage: { input: 5, cacheRead: 135_000, output: 200 } })));

  it("warns when the last reply's context is past the window less the reserve", () => {
    const f = forecastOf(path);
    expect(f).toMatchObject({ tokens: 135_205, provider: "anthropic", model: "test-model", error: false });
    expect(nextSendCompacts(f, { ...opus, contextWindow: 200_000 }, settings())).toBeNull();
    expect(nextSendCompacts(f, { ...opus, contextWindow: 140_000 }, settings())).toEqual({ reason: "threshold", tokens: 135_205, threshold: 140_000 - 16_384 });
    // The same model with a window smaller than the prompt it was sent: a silent overflow (§14).
    expect(nextSendCompacts(f, { ...opus, contextWindow: 128_000 }, settings())?.reason).toBe("overflow");
    // Another model with a small window compacts too; compaction off never does.
    expect(nextSendCompacts(f, { provider: "openai-compatible", id: "fake", contextWindow: 32_000 }, settings())?.reason).toBe("threshold");
    expect(nextSendCompacts(f, { ...opus, contextWindow: 128_000 }, settings({ enabled: false }))).toBeNull();
    expect(nextSendCompacts(f, { ...opus, contextWindow: 0 }, settings())).toBeNull();
  });

  it("says an overflow from the same model compacts, and an error of another kind does not", () => {
    const over = linked(msg("u1", user("hello")), msg("a1", { ...assistant("", { stopReason: "error" }), errorMessage: "prompt is too long: 210000 tokens > 200000 maximum" }));
    const f = forecastOf(over);
    expect(nextSendCompacts(f, { ...opus, contextWindow: 200_000 }, settings())).toMatchObject({ reason: "overflow" });
    expect(nextSendCompacts(f, { provider: "openai", id: "gpt", contextWindow: 200_000 }, settings())).toBeNull();
    const failed = linked(msg("u1", user("hello")), msg("a1", { ...assistant("", { stopReason: "error", usage: { input: 190_000 } }), errorMessage: "rate limited" }));
    expect(nextSendCompacts(forecastOf(failed), { ...opus, contextWindow: 200_000 }, settings())).toBeNull();
  });

  it("says when pruning old tool outputs, not a compaction, keeps a send past the threshold under it", () => {
    // Two old tool outputs of ~60k and ~50k tokens, then a reply that reported 150k of context.
    const big = linked(
      msg("u1", user("look at the logs")),
      msg("a1", assistant("", { calls: [call("t1", "bash")] })),
      msg("r1", toolResult("t1", words(60_000))),
      msg("a2", assistant("", { calls: [call("t2", "bash")] })),
      msg("r2", toolResult("t2", words(50_000))),
      msg("a3", assistant("", { calls: [call("t3", "bash")] })),
      msg("r3", toolResult("t3", words(45_000))),
      msg("a4", assistant("done", { usage: { input: 150_000 } })),
    );
    const f = forecastOf(big)!;
    expect(f.pruneSaved).toBeGreaterThan(20_000);
    expect(f.tokens + f.pruneSaved).toBe(150_000);
    // 150k reported, past 160k − 16k; pruned, under it.
    const model = { ...opus, contextWindow: 160_000 };
    const threshold = 160_000 - 16_384;
    expect(f.tokens).toBeLessThan(threshold);
    expect(nextSendCompacts(f, model, settings())).toBeNull();
    expect(nextSendPrunes(f, model, settings())).toEqual({ before: 150_000, after: f.tokens, threshold });
    expect(nextSendPrunes(f, model, settings({ enabled: false }))).toBeNull();
    // A window so small that pruning is not enough: the compaction warning, not this note.
    const other = { provider: "openai-compatible", id: "fake", contextWindow: 50_000 };
    expect(nextSendCompacts(f, other, settings())?.reason).toBe("threshold");
    expect(nextSendPrunes(f, other, settings())).toBeNull();
    // Under the threshold before pruning: nothing to say.
    expect(nextSendPrunes(f, { ...opus, contextWindow: 400_000 }, settings())).toBeNull();
  });

  it("has nothing to say before the first reply", () => {
    expect(forecastOf(linked(msg("u1", user("hello"))))).toBeUndefined();
  });

  it("agrees with the next-turn preview on a generated session, window by window", () => {
    const { header, entries } = generateSession({ seed: 11, entries: 600, compactions: true });
    const tree = new SessionTree(header, entries);
    const p = tree.getBranch();
    const f = compactionForecast(p, buildSessionContext(p).messages);
    const last = p.findLast((e) => e.type === "message" && e.message.role === "assistant");
    const model = last?.type === "message" && last.message.role === "assistant" ? { provider: last.message.provider, id: last.message.model } : opus;
    let compacting = 0;
    for (const window of [8_000, 16_000, 24_000, 32_000, 64_000, 128_000, 400_000]) {
      const preview = previewNextTurn(entries, tree.getLeafId(), settings({ reserveTokens: 4_000 }), TEST_PROMPTS, window, { model, now: T0 });
      const said = nextSendCompacts(f, { ...model, contextWindow: window }, settings({ reserveTokens: 4_000 }));
      expect(said?.reason ?? null, `window ${window}`).toBe(preview.pending.compaction?.reason ?? null);
      if (said) {
        compacting++;
        expect(said.tokens).toBe(preview.pending.compaction!.contextTokens);
      }
    }
    expect(compacting).toBeGreaterThan(0);
    expect(compacting).toBeLessThan(7);
  });

  it("reads the reply after the latest compaction as is, and one before it as predating it", () => {
    const before = linked(
      msg("u1", user("hello")),
      msg("a1", { ...assistant("", { stopReason: "error" }), errorMessage: "prompt is too long", timestamp: T0 }),
      ent("compaction", "c1", { summary: "s", firstKeptEntryId: "u1", tokensBefore: 10, timestamp: new Date(T0 + 1000).toISOString() }),
    );
    expect(forecastOf(before)?.beforeCompaction).toBe(true);
    expect(nextSendCompacts(forecastOf(before), { ...opus, contextWindow: 200_000 }, settings())).toBeNull();
  });
});
