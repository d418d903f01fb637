import { describe, expect, it } from "vitest";
import { decodeFile, describeBinary, detectMimeType, splitLines, unifiedDiff } from "./content";
import { formatBytes } from "@/lib/text/byte-size";
import { capLines, DEFAULT_LIMITS, formatCount, truncateToBytes, truncationNote } from "./limits";

describe("limits", () => {
  it("defaults to 2000 lines and 50 KB of output per call, 10 MB files", () => {
    expect(DEFAULT_LIMITS).toMatchObject({ maxOutputLines: 2000, maxOutputBytes: 51_200, maxFileBytes: 10_485_760 });
  });

  it("formats counts and sizes", () => {
    expect(formatCount(15320)).toBe("15,320");
    expect(formatBytes(0)).toBe("0 B");
    expect(formatBytes(1023)).toBe("1023 B");
    expect(formatBytes(1024)).toBe("1 KB");
    expect(formatBytes(1536)).toBe("1.5 KB");
    expect(formatBytes(10 * 1024 * 1024)).toBe("10 MB");
  });

  it("truncates to bytes without splitting a character", () => {
    expect(truncateToBytes("aé🌲", 1)).toBe("a");
    expect(truncateToBytes("aé🌲", 2)).toBe("a");
    expect(truncateToBytes("aé🌲", 3)).toBe("aé");
    expect(truncateToBytes("aé🌲", 6)).toBe("aé");
    expect(truncateToBytes("aé🌲", 7)).toBe("aé🌲");
  });

  it("caps by lines, then by bytes (a line costs its bytes plus a newline)", () => {
    expect(capLines(["a", "b", "c"], { maxOutputLines: 2, maxOutputBytes: 100 })).toEqual({ lines: ["a", "b"], cutBy: "lines", partialLine: false });
    expect(capLines(["aa", "bb", "cc"], { maxOutputLines: 10, maxOutputBytes: 6 })).toEqual({ lines: ["aa", "bb"], cutBy: "bytes", partialLine: false });
    expect(capLines(["aa", "bb"], { maxOutputLines: 2, maxOutputBytes: 6 })).toEqual({ lines: ["aa", "bb"], partialLine: false });
    expect(capLines(["x".repeat(10)], { maxOutputLines: 5, maxOutputBytes: 4 })).toEqual({ lines: ["xxxx"], cutBy: "bytes", partialLine: true });
  });

  it("writes notes that say what was cut", () => {
    const base = { unit: "lines" as const, from: 1, to: 2000, total: 15320, limits: DEFAULT_LIMITS, hint: "Use offset/limit to read more." };
    expect(truncationNote({ ...base, cutBy: "lines" })).toBe("[Output truncated: showing lines 1-2000 of 15,320. Use offset/limit to read more.]");
    expect(truncationNote({ ...base, cutBy: "bytes", to: 812 })).toBe(
      "[Output truncated at 50 KB: showing lines 1-812 of 15,320. Use offset/limit to read more.]",
    );
    expect(truncationNote({ ...base, unit: "matches", cutBy: "results", to: 1000, total: undefined, hint: "Narrow it." })).toBe(
      "[Output truncated at 1,000 matches: showing matches 1-1000. Narrow it.]",
    );
  });
});

describe("content", () => {
  it("treats NUL in the first 8 KB or invalid UTF-8 as binary", () => {
    expect(decodeFile(new TextEncoder().encode("plain ünïcode"))).toEqual({ kind: "text", text: "plain ünïcode" });
    expect(decodeFile(new Uint8Array([0x61, 0x00, 0x62]))).toEqual({ kind: "binary" });
    expect(decodeFile(new Uint8Array([0xc3, 0x28]))).toEqual({ kind: "binary" });
    const lateNul = new Uint8Array(9000).fill(0x61);
    lateNul[8500] = 0;
    // A NUL after the first 8 KB is valid UTF-8 (U+0000), so the file counts as text.
    expect(decodeFile(lateNul).kind).toBe("text");
    expect(decodeFile(new Uint8Array()).kind).toBe("text");
  });

  it("detects MIME types by magic number first, then by extension", () => {
    const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0]);
    expect(detectMimeType("photo.txt", jpeg, false)).toBe("image/jpeg");
    expect(detectMimeType("doc.PDF", new Uint8Array(), false)).toBe("application/pdf");
    expect(detectMimeType("noext", new Uint8Array([1, 2]), false)).toBe("application/octet-stream");
    expect(detectMimeType("Makefile", undefined, true)).toBe("text/plain");
    expect(describeBinary("a.gif", new Uint8Array([0x47, 0x49, 0x46, 0x38, 0x39, 0x61]))).toBe("Binary file, 6 bytes, image/gif");
  });

  it("splits lines on LF and CRLF, a final newline ending the last line", () => {
    expect(splitLines("")).toEqual([]);
    expect(splitLines("a")).toEqual(["a"]);
    expect(splitLines("a\nb\n")).toEqual(["a", "b"]);
    expect(splitLines("a\r\nb\r\n\n")).toEqual(["a", "b", ""]);
  });

  it("builds unified diffs with a/ and b/ headers, capped", () => {
    const d = unifiedDiff("f.txt", "a\nb\n", "a\nc\n", 10_000);
    expect(d.diff).toContain("--- a/f.txt");
    expect(d.diff).toContain("+++ b/f.txt");
    expect(d.diff).toContain("@@ -1,2 +1,2 @@\n a\n-b\n+c");
    expect(unifiedDiff("f.txt", "a\n", "b\n", 10)).toEqual({ diffOmitted: "tooLarge" });
  });
});
