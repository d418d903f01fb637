import { describe, expect, it } from "vitest";
import {
  exportFileName,
  MAX_PERSIST_CHARS,
  PERSIST_TRUNCATION_NOTICE,
  sanitizeForPersist,
} from "@/lib/session/file/sanitize";

describe("sanitizeForPersist (session-engine.md §1.9)", () => {
  it("drops partialJson and jsonlEvents at any depth", () => {
    const input = {
      type: "message",
      partialJson: "{",
      message: {
        content: [{ type: "toolCall", id: "t", partialJson: '{"a"', arguments: { x: 1 } }],
        nested: { deeper: [{ jsonlEvents: ["e"], keep: true }] },
      },
    };
    expect(sanitizeForPersist(input)).toEqual({
      type: "message",
      message: {
        content: [{ type: "toolCall", id: "t", arguments: { x: 1 } }],
        nested: { deeper: [{ keep: true }] },
      },
    });
  });

  it("does not mutate its input", () => {
    const input = { partialJson: "x", big: "a".repeat(MAX_PERSIST_CHARS + 1) };
    const before = structuredClone(input);
    sanitizeForPersist(input);
    expect(input).toEqual(before);
  });

  it("keeps a string of exactly MAX_PERSIST_CHARS", () => {
    const s = "b".repeat(MAX_PERSIST_CHARS);
    expect(sanitizeForPersist({ s }).s).toBe(s);
  });

  it("cuts a longer string to 500_000 − notice length, then appends the notice", () => {
    const out = sanitizeForPersist(["c".repeat(MAX_PERSIST_CHARS + 10)])[0]!;
    expect(MAX_PERSIST_CHARS).toBe(500_000);
    expect(out.length).toBe(MAX_PERSIST_CHARS);
    expect(out.endsWith(PERSIST_TRUNCATION_NOTICE)).toBe(true);
    expect(out.slice(0, MAX_PERSIST_CHARS - PERSIST_TRUNCATION_NOTICE.length)).toBe(
      "c".repeat(MAX_PERSIST_CHARS - PERSIST_TRUNCATION_NOTICE.length),
    );
    expect(PERSIST_TRUNCATION_NOTICE).toBe("\n\n[Session persistence truncated large content]");
  });

  it("does not split a surrogate pair at the cut", () => {
    const keep = MAX_PERSIST_CHARS - PERSIST_TRUNCATION_NOTICE.length;
    // The emoji's high surrogate sits at index keep-1, its low surrogate at index keep.
    const s = `${"d".repeat(keep - 1)}😀${"e".repeat(100)}`;
    const out = sanitizeForPersist(s);
    expect(out).toBe(`${"d".repeat(keep - 1)}${PERSIST_TRUNCATION_NOTICE}`);
    // No lone high surrogate anywhere.
    expect(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/.test(out)).toBe(false);
  });

  it("keeps a whole pair that ends exactly at the cut", () => {
    const keep = MAX_PERSIST_CHARS - PERSIST_TRUNCATION_NOTICE.length;
    const s = `${"d".repeat(keep - 2)}😀${"e".repeat(100)}`;
    expect(sanitizeForPersist(s)).toBe(`${"d".repeat(keep - 2)}😀${PERSIST_TRUNCATION_NOTICE}`);
  });

  it("passes numbers, booleans, null and undefined through", () => {
    expect(sanitizeForPersist({ a: 1, b: true, c: null, d: undefined })).toEqual({ a: 1, b: true, c: null, d: undefined });
  });
});

describe("exportFileName (session-engine.md §1.9)", () => {
  it('replaces ":" and "." in the timestamp and appends _<sessionId>.jsonl', () => {
    expect(exportFileName("2025-11-20T23:33:50.805Z", "abc-123")).toBe("2025-11-20T23-33-50-805Z_abc-123.jsonl");
  });
});
