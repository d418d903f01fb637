/** CallIndex answers what a Map of call id → last entry index answers, through growth and reuse of ids. */
import { describe, expect, it } from "vitest";
import { CallIndex } from "@/lib/session-view/call-index";

describe("CallIndex", () => {
  it("gives the last entry calling each id, like a Map filled in entry order", () => {
    let seed = 1;
    const rnd = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const calls: string[][] = [];
    const index = new CallIndex((entry, position) => calls[entry]![position]);
    const expected = new Map<string, number>();
    for (let entry = 0; entry < 5000; entry++) {
      const ids: string[] = [];
      const n = Math.floor(rnd() * 4);
      // Mostly new ids, some reused from earlier entries, some twice in one entry.
      for (let k = 0; k < n; k++) ids.push(rnd() < 0.15 ? `call_${Math.floor(rnd() * entry)}` : rnd() < 0.05 && ids.length > 0 ? ids[0]! : `toolu_${entry}_${k}`);
      calls.push(ids);
      ids.forEach((id, position) => {
        index.set(id, entry, position);
        expected.set(id, entry);
      });
      if (entry % 500 === 0) for (const [id, at] of expected) expect(index.get(id)).toBe(at);
    }
    for (const [id, at] of expected) expect(index.get(id)).toBe(at);
    expect(index.get("no-such-call")).toBeUndefined();
    expect(index.size).toBe(expected.size);
    expect(index.bytes()).toBeLessThan(expected.size * 30);
  });

  it("keeps calls beyond the slots' positions too", () => {
    const calls = [["a"], Array.from({ length: 70_000 }, (_, i) => (i === 69_999 ? "a" : `x${i}`))];
    const index = new CallIndex((entry, position) => calls[entry]![position]);
    index.set("a", 0, 0);
    expect(index.get("a")).toBe(0);
    index.set("a", 1, 69_999);
    expect(index.get("a")).toBe(1);
  });
});
