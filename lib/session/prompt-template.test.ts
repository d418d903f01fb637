import { describe, expect, it } from "vitest";
import { normalizeTemplateText, renderTemplate } from "@/lib/session/prompt-template";

describe("renderTemplate substitution (session-engine.md §17 Rendering step 1)", () => {
  it("substitutes {{summary}} without HTML escaping", () => {
    expect(renderTemplate("<summary>\n{{summary}}\n</summary>", { summary: "a < b && \"c\" & 'd'" })).toBe(
      "<summary>\na < b && \"c\" & 'd'\n</summary>",
    );
  });

  it("inserts replacement-pattern characters literally", () => {
    expect(renderTemplate("x {{summary}} y", { summary: "$& $1 $$" })).toBe("x $& $1 $$ y");
  });

  it("throws a clear error naming a placeholder with no value", () => {
    expect(() => renderTemplate("Hi {{summary}}")).toThrow('Prompt template variable "summary" has no value');
    expect(() => renderTemplate("{{other}}", { summary: "s" })).toThrow(/"other"/);
  });

  it("ignores variables the template does not reference", () => {
    expect(renderTemplate("static text", { summary: "unused" })).toBe("static text");
  });

  it("renders a static template with no variables", () => {
    expect(renderTemplate("  Summarize.  \n")).toBe("Summarize.");
  });
});

describe("renderTemplate normalization (session-engine.md §17 Rendering step 2)", () => {
  it("turns CRLF and CR into LF", () => {
    expect(normalizeTemplateText("a\r\nb\rc")).toBe("a\nb\nc");
  });

  it("turns NBSP into a space", () => {
    expect(normalizeTemplateText("a\u00a0b")).toBe("a b");
  });

  it("strips trailing spaces and tabs, and empties whitespace-only lines", () => {
    expect(normalizeTemplateText("a \t\n \t \nb  ")).toBe("a\n\nb");
  });

  it("turns each pair of leading spaces into a tab and keeps a leftover single space", () => {
    expect(normalizeTemplateText("x\n  two\n   three\n    four\ny")).toBe("x\n\ttwo\n\t three\n\t\tfour\ny");
  });

  it("does not touch spaces after the leading indentation", () => {
    expect(normalizeTemplateText("x\n  a  b")).toBe("x\n\ta  b");
  });

  it("collapses runs of 3+ newlines to 2 and trims the result", () => {
    expect(normalizeTemplateText("\n\na\n\n\n\nb\n\n\n")).toBe("a\n\nb");
  });

  it("applies to the substituted summary too", () => {
    const out = renderTemplate("Recap:\n\n<summary>\n{{summary}}\n</summary>", {
      summary: "line one   \r\n\r\n\r\n\r\n  - nested\u00a0item",
    });
    expect(out).toBe("Recap:\n\n<summary>\nline one\n\n\t- nested item\n</summary>");
  });
});
