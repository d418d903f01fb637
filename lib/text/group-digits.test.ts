import { describe, expect, it } from "vitest";
import { groupDigits } from "./group-digits";

describe("groupDigits", () => {
  const intl = new Intl.NumberFormat("en-US");

  it("writes whole numbers as Intl's en-US format does", () => {
    const samples = [0, 7, 42, 999, 1000, 1001, 12_345, 999_999, 1_000_000, 123_456_789, Number.MAX_SAFE_INTEGER, -1, -999, -1000, -1_234_567];
    for (let i = 0; i < 200; i++) samples.push(Math.floor((Math.random() - 0.3) * 10 ** (1 + (i % 15))));
    for (const n of samples) expect(groupDigits(n)).toBe(intl.format(n));
  });

  it("gives anything else to Intl: fractions, NaN, infinities, unsafe integers", () => {
    for (const n of [1.5, 1234.5678, -0.25, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 2 ** 60]) expect(groupDigits(n)).toBe(intl.format(n));
  });
});
