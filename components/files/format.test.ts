import { describe, expect, it } from "vitest";
import { formatSize } from "./format";

describe("formatSize", () => {
  it("shows bytes below 1 KB and one decimal below 10 of a unit", () => {
    expect(formatSize(0)).toBe("0 B");
    expect(formatSize(1023)).toBe("1023 B");
    expect(formatSize(1024)).toBe("1 KB");
    expect(formatSize(1536)).toBe("1.5 KB");
    expect(formatSize(12 * 1024 + 300)).toBe("12 KB");
    expect(formatSize(3.24 * 1024 * 1024)).toBe("3.2 MB");
    expect(formatSize(50 * 1024 * 1024)).toBe("50 MB");
    expect(formatSize(5 * 1024 ** 5)).toBe("5120 TB");
  });

  it("is empty for nonsense", () => {
    expect(formatSize(-1)).toBe("");
    expect(formatSize(Number.NaN)).toBe("");
  });
});
