/** A prompt's title and its line on the map (session-engine.md §1.2; lib/session/prompt-title.ts). */
import { describe, expect, it } from "vitest";
import { cleanPromptText, promptLine } from "@/lib/session/prompt-title";

describe("a prompt's line as the map names it", () => {
  it("reads a Claude Code command as the person typed it", () => {
    const text = "<command-message>review-pr is running…</command-message>\n<command-name>/review-pr</command-name>\n<command-args>5</command-args>";
    expect(promptLine(text)).toBe("/review-pr 5");
  });

  it("names a prompt that is only agent markup by its block", () => {
    expect(promptLine("<task-notification>\n<task-id>b7</task-id>\n<status>completed</status>\n</task-notification>")).toBe("[task notification]");
    expect(promptLine("<local-command-stdout>See ya!</local-command-stdout>")).toBe("[local command stdout]");
  });

  it("keeps a plain prompt's first line, and the words after a preamble", () => {
    expect(promptLine("Fix the parser\n<system-reminder>be careful</system-reminder>")).toBe("Fix the parser");
    expect(promptLine("<environment_context>\n<cwd>/w</cwd>\n</environment_context>\nPort the theme")).toBe("Port the theme");
    expect(cleanPromptText("<system-reminder>x</system-reminder>")).toBe("");
  });
});
