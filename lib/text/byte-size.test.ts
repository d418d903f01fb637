import { describe, expect, it } from "vitest";
import { formatBytes } from "./byte-size";

describe("formatBytes", () => {
  it("shows bytes below 1 KB and one decimal below 10 of a unit", () => {
    expect(formatBytes(0)).toBe("0 B");
    expect(formatBytes(1023)).toBe("1023 B");
    expect(formatBytes(1024)).toBe("1 KB");
    expect(formatBytes(1536)).toBe("1.5 KB");
    expect(formatBytes(12 * 1024 + 300)).toBe("12 KB");
    expect(formatBytes(3.24 * 1024 * 1024)).toBe("3.2 MB");
    expect(formatBytes(50 * 1024 * 1024)).toBe("50 MB");
    expect(formatBytes(5 * 1024 ** 5)).toBe("5120 TB");
  });

  it("is empty for nonsense", () => {
    expect(formatBytes(-1)).toBe("");
    expect(formatBytes(Number.NaN)).toBe("");
  });
});
