import { describe, expect, it } from "vitest";
import { buildSessionContext } from "@/lib/session/context";
import type { SessionEntry } from "@/lib/session/types";
import { meterReading, meterText, meterWindowText, readContextMeter } from "./context-meter";

let n = 0;
function e(fields: Record<string, unknown>): SessionEntry {
  n++;
  return { id: `m${n}`, parentId: n > 1 ? `m${n - 1}` : null, timestamp: new Date(1_700_000_000_000 + n * 1000).toISOString(), ...fields } as SessionEntry;
}
const user = (text: string) => e({ type: "message", message: { role: "user", content: text, timestamp: n } });
const assistant = (text: string, input: number) =>
  e({
    type: "message",
    message: { role: "assistant", content: [{ type: "text", text }], provider: "p", model: "m", usage: { input, output: 100, cacheRead: 0, cacheWrite: 0 }, stopReason: "stop", timestamp: n },
  });

describe("readContextMeter (session-engine.md §4, ui.md context meter)", () => {
  it("uses the provider-reported usage of the last assistant plus estimates after it", () => {
    const path = [user("hello"), assistant("hi", 5000), user("x".repeat(400))];
    const r = readContextMeter(path, buildSessionContext(path).messages, 10_000, 2_000)!;
    expect(r.tokens).toBe(5100 + 100);
    expect(r.estimated).toBe(false);
    expect(r.percent).toBeCloseTo(52);
    expect(r.threshold).toBe(8000);
    expect(r.overThreshold).toBe(false);
  });

  it("flags a reading past the compaction threshold", () => {
    const path = [user("hello"), assistant("hi", 8_500)];
    const r = readContextMeter(path, buildSessionContext(path).messages, 10_000, 2_000)!;
    expect(r.overThreshold).toBe(true);
  });

  it("shows an estimate of the rebuilt context after a compaction, until the next reply", () => {
    const u1 = user("a".repeat(4000));
    const a1 = assistant("b".repeat(4000), 90_000);
    const u2 = user("c".repeat(40));
    const a2 = assistant("d".repeat(40), 95_000);
    const c = e({ type: "compaction", summary: "s".repeat(400), firstKeptEntryId: u2.id, tokensBefore: 95_100 });
    const path = [u1, a1, u2, a2, c];
    const r = readContextMeter(path, buildSessionContext(path).messages, 100_000, 16_384)!;
    expect(r.estimated).toBe(true);
    expect(r.tokens).toBe(100 + 10 + 10); // summary 400/4, u2 40/4, a2 40/4
    expect(r.tokens).toBeLessThan(95_100);

    const u3 = user("next");
    const a3 = assistant("reply", 3_000);
    const after = [...path, u3, a3];
    const r2 = readContextMeter(after, buildSessionContext(after).messages, 100_000, 16_384)!;
    expect(r2.estimated).toBe(false);
    expect(r2.tokens).toBe(3_100);
  });

  it("is undefined without a context window", () => {
    expect(readContextMeter([], [], 0, 100)).toBeUndefined();
  });
});

describe("the meter names the window it measures against (docs/ui.md 'The session workspace')", () => {
  const opus = { id: "claude-opus-4-5", contextWindow: 200_000, windowAssumed: false, offline: false };
  const basis = { tokens: 181_000, usageTokens: 181_000, trailingTokens: 0, lastUsageIndex: 3, estimated: false };

  it("reads tokens of the next turn's model's window: 181k of claude-opus-4-5's 200k", () => {
    const r = meterReading(basis, opus.contextWindow, 16_384, opus)!;
    expect(meterText(r)).toBe("181k of claude-opus-4-5's 200k (91%)");
  });

  it("says when the window is assumed: the offline model, an unknown model, no model", () => {
    const offline = { id: "offline", contextWindow: 128_000, windowAssumed: true, offline: true };
    expect(meterText(meterReading(basis, 128_000, 16_384, offline)!)).toBe("181k of the offline model's 128k (assumed) (141%)");
    const local = { id: "my-local-model", contextWindow: 128_000, windowAssumed: true, offline: false };
    expect(meterText(meterReading(basis, 128_000, 16_384, local)!)).toBe("181k of my-local-model's 128k (assumed) (141%)");
    expect(meterText(meterReading(basis, 128_000, 16_384)!)).toBe("181k of an assumed 128k (141%)");
  });

  it("writes small counts in full, large windows in M, and marks estimates", () => {
    const r = meterReading({ ...basis, tokens: 6012, estimated: true }, 1_047_576, 16_384, { id: "gpt-4.1", contextWindow: 1_047_576, windowAssumed: false, offline: false })!;
    expect(meterText(r)).toBe("~6,012 of gpt-4.1's 1.05M (1%) estimated");
    expect(meterWindowText(32_000, { id: "fake-model", contextWindow: 32_000, windowAssumed: false, offline: false })).toBe("fake-model's 32k");
  });
});
