import { describe, expect, it } from "vitest";
import { sessionDisplayName } from "@/lib/session/display-name";
import {
  assistantEntry,
  chain,
  header,
  image,
  messageEntry,
  sessionInfoEntry,
  text,
  userEntry,
  userMsg,
} from "@/test/session-factories";

describe("sessionDisplayName (session-engine.md §1.2)", () => {
  const convo = () => chain(userEntry("1", null, "  Fix the parser  "), assistantEntry("2", null, "ok"));

  it("prefers the header title", () => {
    expect(sessionDisplayName(header({ title: "My title" }), convo())).toBe("My title");
  });

  it("else uses the name of the last session_info entry", () => {
    const entries = chain(...convo(), sessionInfoEntry("3", null, "old"), sessionInfoEntry("4", null, "new"));
    expect(sessionDisplayName(header(), entries)).toBe("new");
  });

  it("a last session_info without a name clears the name", () => {
    const entries = chain(...convo(), sessionInfoEntry("3", null, "old"), sessionInfoEntry("4", null));
    expect(sessionDisplayName(header(), entries)).toBe("Fix the parser");
  });

  it("else uses the first user message text (string or text blocks), skipping text-less ones", () => {
    expect(sessionDisplayName(header(), convo())).toBe("Fix the parser");
    const blocks = chain(
      messageEntry("1", null, userMsg([image()])),
      messageEntry("2", null, userMsg([text("Look"), image(), text("here")])),
    );
    expect(sessionDisplayName(header(), blocks)).toBe("Look\nhere");
  });

  it("is undefined when nothing applies", () => {
    expect(sessionDisplayName(header(), [])).toBeUndefined();
    expect(sessionDisplayName(header({ title: "  " }), [assistantEntry("1", null, "a")])).toBeUndefined();
  });
});
