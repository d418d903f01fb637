/** Folding agent preambles and command records out of user messages (ui.md "Chat"). */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { mapSessionText } from "@/lib/formats/map-lines";
import { FIXTURES_DIR, hasFixtures } from "@/test/fixtures";
import { preambleTitle, splitPreamble } from "./preamble";

describe("splitPreamble", () => {
  it("folds a Claude Code slash command into one command block", () => {
    const text = "<command-message>mcp</command-message>\n<command-name>/mcp</command-name>\n<command-args>list</command-args>";
    const { blocks, rest } = splitPreamble(text);
    expect(rest).toBe("");
    expect(blocks).toEqual([{ kind: "command", label: "/mcp list", body: expect.stringContaining("<command-name>/mcp</command-name>") }]);
    expect(preambleTitle(blocks)).toBe("Command · /mcp list");
  });

  it("labels command output, keeping its text", () => {
    const { blocks, rest } = splitPreamble("<local-command-stdout>MCP dialog dismissed</local-command-stdout>");
    expect(rest).toBe("");
    expect(blocks[0]).toMatchObject({ kind: "command", label: "command output" });
    expect(blocks[0]!.body).toContain("MCP dialog dismissed");
  });

  it("folds Codex's leading context blocks, known or not, and the AGENTS.md section", () => {
    const text = [
      "<permissions instructions>\nFilesystem sandboxing …\n</permissions instructions>",
      "<apps_instructions>\nApps …\n</apps_instructions>",
      "# AGENTS.md instructions for /repo\n\n<INSTRUCTIONS>\n# Guide\nRead STRATEGY.md\n</INSTRUCTIONS>",
      "<environment_context>\n  <cwd>/repo</cwd>\n</environment_context>",
    ].join("\n");
    const { blocks, rest } = splitPreamble(text);
    expect(rest).toBe("");
    expect(blocks.map((b) => [b.kind, b.label])).toEqual([
      ["system", "permissions instructions"],
      ["system", "apps instructions"],
      ["system", "AGENTS.md instructions"],
      ["system", "environment context"],
    ]);
    expect(blocks.map((b) => b.body).join("\n")).toBe(text);
    expect(preambleTitle(blocks)).toBe("System · permissions instructions, apps instructions, AGENTS.md instructions and 1 more");
  });

  it("keeps what the person wrote, with reminders appended by the agent folded", () => {
    const { blocks, rest } = splitPreamble("Why is <b>this</b> bold?\n<system-reminder>The file changed.</system-reminder>");
    expect(rest).toBe("Why is <b>this</b> bold?");
    expect(blocks.map((b) => b.label)).toEqual(["system reminder"]);
  });

  it("leaves ordinary text, and unknown tags after the person's words, alone", () => {
    expect(splitPreamble("Fix the bug in <my_component> please")).toEqual({ blocks: [], rest: "Fix the bug in <my_component> please" });
    expect(splitPreamble("  hello  ")).toEqual({ blocks: [], rest: "hello" });
  });

  it("names a skill by its name", () => {
    const { blocks } = splitPreamble("<skill>\n<name>worktree</name>\n<path>/s/SKILL.md</path>\nbody\n</skill>");
    expect(blocks[0]).toMatchObject({ kind: "system", label: "skill: worktree" });
  });
});

describe.skipIf(!hasFixtures)("a real Codex session's opening", () => {
  it("is folded whole: no preamble text is left to show as the person's words", () => {
    const text = readFileSync(path.join(FIXTURES_DIR, "formats/codex/EntityProcess-agentv-v0-142-1.jsonl"), "utf8");
    // Independently: the user/developer message texts of the file's first response items.
    const firstUserTexts: string[] = [];
    for (const line of text.split("\n")) {
      if (!line.trim()) continue;
      const r = JSON.parse(line) as { type?: string; payload?: { type?: string; role?: string; content?: { text?: string }[] } };
      if (r.type === "response_item" && r.payload?.type === "message" && (r.payload.role === "user" || r.payload.role === "developer")) {
        firstUserTexts.push((r.payload.content ?? []).map((c) => c.text ?? "").join("\n"));
      }
      if (firstUserTexts.length === 3) break;
    }
    const preambles = firstUserTexts.filter((t) => /^\s*(<permissions instructions>|# AGENTS\.md|<environment_context>)/.test(t));
    expect(preambles.length).toBeGreaterThan(0);
    for (const t of preambles) expect(splitPreamble(t).rest).toBe("");
    // The person's question (the first message that is not a preamble) is kept whole.
    const mapped = mapSessionText(text)!;
    const question = mapped.entries.find((e) => e.type === "message" && e.message.role === "user" && !e.message.synthetic && splitPreamble(JSON.stringify(e.message.content)).blocks.length === 0);
    expect(question).toBeDefined();
  });
});
