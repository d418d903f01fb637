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
    expect(sessionDisplayName(header(), blocks)).toBe("Look here");
  });

  it("takes the first prompt a person typed: synthetic messages, agent preambles and command markup left out", () => {
    const codex = chain(
      messageEntry("1", null, { ...userMsg("<permissions instructions>\nFilesystem sandboxing defines…</permissions instructions>"), synthetic: true }),
      userEntry("2", null, "# AGENTS.md instructions for /repo\n\n<INSTRUCTIONS>\nBe brief.\n</INSTRUCTIONS>"),
      userEntry("3", null, "<environment_context>\n  <cwd>/repo</cwd>\n</environment_context>\nwhy is the build red?"),
    );
    expect(sessionDisplayName(header(), codex)).toBe("why is the build red?");
    const claude = chain(
      userEntry("1", null, "<command-message>review-pr is running…</command-message>\n<command-name>/review-pr</command-name>\n<command-args>42</command-args>"),
    );
    expect(sessionDisplayName(header(), claude)).toBe("/review-pr 42");
    const stdout = chain(userEntry("1", null, "<local-command-stdout>(no content)</local-command-stdout>"), userEntry("2", null, "now fix it"));
    expect(sessionDisplayName(header(), stdout)).toBe("now fix it");
  });

  it("a lone slash command is the title only when no real prompt follows", () => {
    expect(sessionDisplayName(header(), chain(userEntry("1", null, "/mode"), userEntry("2", null, "Plan the release")))).toBe("Plan the release");
    expect(sessionDisplayName(header(), chain(userEntry("1", null, "/mode"), assistantEntry("2", null, "ok")))).toBe("/mode");
    expect(sessionDisplayName(header(), chain(userEntry("1", null, "/home/me/notes.txt: summarise")))).toBe("/home/me/notes.txt: summarise");
  });

  it("is undefined when nothing applies", () => {
    expect(sessionDisplayName(header(), [])).toBeUndefined();
    expect(sessionDisplayName(header({ title: "  " }), [assistantEntry("1", null, "a")])).toBeUndefined();
  });
});
