import { describe, expect, it } from "vitest";
import { FORMAT_LABELS } from "@/lib/formats/types";
import { readableFormats } from "./format";

describe("readableFormats (the empty list and the import zone name every format Arbor reads)", () => {
  it("names each format of the format table once, as a list ending in 'or'", () => {
    const text = readableFormats();
    for (const label of Object.values(FORMAT_LABELS)) {
      const name = label.replace(/ session$/, "");
      expect(text.split(name).length - 1, name).toBe(1);
    }
    expect(text).toContain("Claude Code");
    expect(text).toContain("pi / oh-my-pi");
    expect(text).toMatch(/, [^,]+ or [^,]+$/);
    expect(text).not.toMatch(/session/);
  });
});
