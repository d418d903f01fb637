import { describe, expect, it } from "vitest";
import { bodyText, clockTime, dayTime, duration, formatTokens, previewLines } from "@/components/tree/format";

describe("formatTokens", () => {
  it("rounds to a short estimate", () => {
    expect([0, 1, 340, 999, 1000, 1234, 15_050, 99_960, 123_456].map(formatTokens)).toEqual([
      "0 tokens",
      "1 token",
      "340 tokens",
      "999 tokens",
      "1k tokens",
      "1.2k tokens",
      "15.1k tokens",
      "100k tokens",
      "123k tokens",
    ]);
  });
});

describe("bodyText", () => {
  it("drops the role prefix the role mark already shows", () => {
    expect(bodyText("user: fix it", "user")).toBe("fix it");
    expect(bodyText("assistant: (aborted)", "assistant")).toBe("(aborted)");
    expect(bodyText("[read: a.ts]", "tool")).toBe("[read: a.ts]");
    expect(bodyText("[model: x/y]", "setting")).toBe("[model: x/y]");
  });
});

describe("previewLines", () => {
  it("keeps the first non-empty lines without Markdown markers", () => {
    const md = "## Goal\n\nShip the canvas\n## Progress\n- [x] layout\n- [ ] nodes\n1. more";
    expect(previewLines(md, 3, 200)).toBe("Goal\nShip the canvas\nProgress");
    expect(previewLines(md, 10, 200).split("\n")).toEqual(["Goal", "Ship the canvas", "Progress", "layout", "nodes", "more"]);
    expect(previewLines("abcdef", 1, 3)).toBe("abc…");
  });
});

describe("duration", () => {
  it("says a pause in the unit a person would use", () => {
    expect(duration(20_000)).toBe("<1 min");
    expect(duration(45 * 60_000 + 59_000)).toBe("45 min");
    expect(duration(3 * 3_600_000 + 1)).toBe("3 h");
    expect(duration(50 * 3_600_000)).toBe("2 days");
  });

  it("clock and day times are zero-padded local times", () => {
    const t = new Date(2025, 0, 15, 9, 5).getTime();
    expect(clockTime(t)).toBe("09:05");
    expect(dayTime(t)).toBe("Jan 15 09:05");
  });
});
