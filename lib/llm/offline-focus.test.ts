/** The offline summariser follows a compaction focus (docs/engine.md "Arbor extensions around compaction"): verbatim sentences per kind or word. */
import { describe, expect, it } from "vitest";
import { focusItems, focusOf } from "@/lib/llm/offline-focus";
import { extractiveSummary } from "@/lib/llm/offline-summary";

const parts = [
  { role: "User", text: "Rename the loader. Never edit generated files. Why is it slow?" },
  { role: "Assistant", text: "The import takes 900 ms per batch. TODO: cache the parser." },
  { role: "Tool result", text: "ok\nError: ENOENT lib/x.ts" },
];

describe("offline focus", () => {
  it("reads the focus from the instructions", () => {
    expect(focusOf("SUMMARY-PROMPT\n\nAdditional focus: the parser")).toBe("the parser");
    expect(focusOf("SUMMARY-PROMPT")).toBeUndefined();
  });

  it("picks facts by kind words, and sentences by plain words", () => {
    expect(focusItems(parts, "instructions and errors")).toEqual(["Rename the loader.", "Never edit generated files.", "Error: ENOENT lib/x.ts"]);
    expect(focusItems(parts, "numbers, todos")).toEqual(["The import takes 900 ms per batch.", "The import takes 900 ms per batch. TODO: cache the parser."]);
    expect(focusItems(parts, "the parser")).toEqual(["TODO: cache the parser."]);
  });

  it("quotes them under Critical Context of an offline summary", () => {
    const prompt = `<conversation>\n[User]: Never edit generated files.\n\n[Assistant]: Done.\n</conversation>\n\n## Goal\n## Critical Context\n\nAdditional focus: constraints`;
    expect(extractiveSummary(prompt)).toContain("## Critical Context\n- Focus: Never edit generated files.");
    expect(extractiveSummary(prompt.replace("\n\nAdditional focus: constraints", ""))).not.toContain("- Focus:");
  });
});
