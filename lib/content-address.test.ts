/** Canonical JSON: one text per JSON value, equal before and after a JSONB round trip. */
import { describe, expect, it } from "vitest";
import { addressContent, canonicalJson, contentHash, matchKey } from "@/lib/content-address";
import { MAX_PERSIST_CHARS, sanitizeForPersist } from "@/lib/session/file/sanitize";

describe("canonicalJson", () => {
  it("sorts keys at every depth and drops undefined members", () => {
    expect(canonicalJson({ b: 1, a: { d: [1, undefined, { z: 1, y: 2 }], c: undefined } })).toBe(
      '{"a":{"d":[1,null,{"y":2,"z":1}]},"b":1}',
    );
    expect(contentHash({ x: 1, y: 2 })).toBe(contentHash({ y: 2, x: 1 }));
  });

  it("stores what PostgreSQL can hold: U+0000 and lone surrogates become U+FFFD", () => {
    expect(canonicalJson({ t: "a\u0000b\ud800c" })).toBe(JSON.stringify({ t: "a\ufffdb\ufffdc" }));
    expect(canonicalJson({ t: "😀" })).toBe('{"t":"😀"}');
    // The stored (replaced) form hashes like the original.
    expect(contentHash({ t: "a\ufffdb" })).toBe(contentHash({ t: "a\u0000b" }));
  });

  it("non-finite numbers are null and values without JSON are 'null'", () => {
    expect(canonicalJson([Number.NaN, Number.POSITIVE_INFINITY])).toBe("[null,null]");
    expect(canonicalJson(undefined)).toBe("null");
  });

  it("reports the UTF-8 size", () => {
    const a = addressContent({ t: "é" });
    expect(a.json).toBe('{"t":"é"}');
    expect(a.bytes).toBe(10);
    expect(a.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("matchKey sees through the store's truncation of huge strings (session-engine.md §1.9)", () => {
    const huge = { role: "toolResult", content: [{ type: "text", text: "y".repeat(MAX_PERSIST_CHARS + 10) }] };
    const stored = sanitizeForPersist(huge); // what the entries table holds
    expect(contentHash(huge)).not.toBe(contentHash(stored));
    expect(matchKey(huge)).toBe(matchKey(JSON.parse(canonicalJson(stored))));
  });
});
