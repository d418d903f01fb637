/**
 * PackedTexts gives back exactly the texts it was given, whatever their characters: Latin-1
 * ones as packed bytes (a trailing "…" as a mark), others and replaced ones as strings.
 */
import { describe, expect, it } from "vitest";
import { ownCopy, PackedTexts } from "@/lib/session-view/packed-texts";

const TEXTS = ["", "user: hello", "café ÿ", "assistant: clipped…", "…", "a…b", "emoji 😀", "日本語…", "tab\tand\nnew line", `${"x".repeat(119)}…`];

describe("PackedTexts", () => {
  it("returns every text pushed, one by one and by ranges", () => {
    const texts = new PackedTexts();
    for (const t of TEXTS) texts.push(t);
    expect(texts.length).toBe(TEXTS.length);
    expect(TEXTS.map((_, i) => texts.get(i))).toEqual(TEXTS);
    expect(texts.range(0, TEXTS.length)).toEqual(TEXTS);
    expect(texts.range(3, 7)).toEqual(TEXTS.slice(3, 7));
    expect(texts.range(5, 99)).toEqual(TEXTS.slice(5));
    expect(texts.range(4, 4)).toEqual([]);
  });

  it("replaces texts, keeps them through growth and trimming, and counts its bytes", () => {
    const texts = new PackedTexts();
    const all: string[] = [];
    for (let i = 0; i < 3000; i++) {
      const t = TEXTS[i % TEXTS.length]! + i;
      texts.push(t);
      all.push(t);
    }
    texts.set(7, "[read: a.ts]");
    all[7] = "[read: a.ts]";
    texts.set(8, "wide → now");
    all[8] = "wide → now";
    texts.trim();
    expect(texts.range(0, all.length)).toEqual(all);
    texts.push("after trim…");
    expect(texts.get(3000)).toBe("after trim…");
    expect(texts.bytes()).toBeGreaterThan(all.join("").length);
    expect(() => texts.set(99_999, "x")).toThrow(RangeError);
  });

  it("ownCopy keeps the characters", () => {
    for (const t of TEXTS) expect(ownCopy(t)).toBe(t);
  });
});
