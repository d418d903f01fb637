/** The user message content built from a UI message's parts, and the chat system prompt. */
import { describe, expect, it } from "vitest";
import { buildSystemPrompt } from "./system-prompt";
import { userContentOf } from "./turn";

describe("userContentOf", () => {
  it("joins text parts into a string and attaches image data URLs as images", () => {
    expect(userContentOf([{ type: "text", text: "a" }, { type: "text", text: "b" }])).toBe("a\n\nb");
    expect(userContentOf([{ type: "text", text: "  " }])).toBeUndefined();
    expect(
      userContentOf([
        { type: "text", text: "look" },
        { type: "file", mediaType: "image/png", url: "data:image/png;base64,aGVsbG8=" },
      ]),
    ).toEqual([
      { type: "text", text: "look" },
      { type: "image", data: "aGVsbG8=", mimeType: "image/png" },
    ]);
    expect(userContentOf([{ type: "file", mediaType: "image/png", url: "data:image/png;base64,aGk=" }])).toEqual([
      { type: "image", data: "aGk=", mimeType: "image/png" },
    ]);
  });
});

describe("buildSystemPrompt", () => {
  it("names the tools and the date", () => {
    const prompt = buildSystemPrompt({ tools: ["read", "grep"], now: new Date("2025-03-04T10:00:00Z") });
    expect(prompt).toContain("Arbor");
    expect(prompt).toContain("- read —");
    expect(prompt).toContain("- grep —");
    expect(prompt).not.toContain("- write —");
    expect(prompt).toContain("Today's date is 2025-03-04.");
    expect(buildSystemPrompt({ tools: [] })).toContain("You have no tools in this session");
  });
});
