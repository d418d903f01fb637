import { describe, expect, it } from "vitest";
import { generateEntryId, generateSessionId, MAX_SHORT_ID_ATTEMPTS } from "@/lib/session/file/ids";

/** A UUID source that returns the given values in order, then repeats the last one. */
function scripted(...values: string[]): () => string {
  let i = 0;
  return () => values[Math.min(i++, values.length - 1)]!;
}

describe("generateEntryId (session-engine.md §1.6)", () => {
  it("is 8 lowercase hex characters: the tail of a UUID", () => {
    for (let i = 0; i < 50; i++) expect(generateEntryId(new Set())).toMatch(/^[0-9a-f]{8}$/);
    expect(generateEntryId(new Set(), scripted("123e4567-e89b-42d3-a456-4266141740ab"))).toBe("141740ab");
  });

  it("draws again when the id is taken", () => {
    const taken = new Set(["aaaaaaaa"]);
    const uuid = scripted("00000000-0000-4000-8000-0000aaaaaaaa", "00000000-0000-4000-8000-0000bbbbbbbb");
    expect(generateEntryId(taken, uuid)).toBe("bbbbbbbb");
  });

  it("falls back to a longer unique id after 100 colliding draws", () => {
    const taken = new Set(["aaaaaaaa"]);
    let calls = 0;
    const uuid = () => {
      calls++;
      return "00000000-0000-4000-8000-0000aaaaaaaa";
    };
    const id = generateEntryId(taken, uuid);
    expect(calls).toBe(MAX_SHORT_ID_ATTEMPTS + 1);
    expect(id.length).toBeGreaterThan(8);
    expect(taken.has(id)).toBe(false);
  });

  it("the fallback stays unique even if the long id is also taken", () => {
    const long = "00000000-0000-4000-8000-0000aaaaaaaa";
    const id = generateEntryId(new Set(["aaaaaaaa", long]), () => long);
    expect(id).toBe(`${long}-1`);
  });
});

describe("generateSessionId (session-engine.md §1.6)", () => {
  it("is a v4 UUID, different each time", () => {
    const a = generateSessionId();
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(generateSessionId()).not.toBe(a);
  });
});
