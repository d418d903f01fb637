/** The fact check's noise filter: which lines are errors and TODOs a summary should carry. */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { factCheckCompaction } from "@/lib/compaction/fact-check";
import { extractFacts } from "@/lib/compaction/fact-extract";
import { errorLineOf, isErrorLine, isTodoLine } from "@/lib/compaction/fact-lines";
import { loadSession } from "@/lib/session/file/load";
import type { SessionEntry } from "@/lib/session/types";
import { assistant, bash, call, linked, msg, toolResult } from "@/test/compaction-helpers";
import { FIXTURES_DIR, FIXTURES_SKIP_REASON, hasFixtures } from "@/test/fixtures";

describe("errorLineOf: the line of a failed output that says what went wrong", () => {
  it("skips the command's echo and progress before the error", () => {
    expect(errorLineOf("> pkg@0.0.3 check\n> biome check .\n\nlib/a.ts:3:1 lint/style ━━━\n✖ Found 2 errors.")).toBe("✖ Found 2 errors.");
    expect(errorLineOf("Running formatting, linting, and type checking...\nsrc/x.ts(4,1): error TS2304: Cannot find name 'y'.")).toBe(
      "src/x.ts(4,1): error TS2304: Cannot find name 'y'.",
    );
    expect(errorLineOf("To https://github.com/o/r.git\n ! [rejected]        main -> main (fetch first)\nerror: failed to push some refs")).toBe(
      "! [rejected] main -> main (fetch first)",
    );
  });

  it("gives nothing for an output that names no error", () => {
    expect(errorLineOf("(no output)")).toBeUndefined();
    expect(errorLineOf("From https://github.com/o/r\n * branch main -> FETCH_HEAD")).toBeUndefined();
    expect(errorLineOf("")).toBeUndefined();
  });

  it("keeps error lines, errno codes and tool-error tags' text", () => {
    expect(errorLineOf("cat: a/package.json: No such file or directory")).toBe("cat: a/package.json: No such file or directory");
    expect(errorLineOf("ENOENT: access '/x/CHANGELOG.md'")).toBe("ENOENT: access '/x/CHANGELOG.md'");
    expect(errorLineOf("<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>")).toBe(
      "File has not been read yet. Read it first before writing to it.",
    );
    expect(errorLineOf("<tool_use_error>String to replace not found in file.</tool_use_error>")).toBe("String to replace not found in file.");
    expect(errorLineOf("🔒 Blocked: command references protected directory")).toBe("🔒 Blocked: command references protected directory");
  });

  it("does not take a count of nothing for an error", () => {
    expect(isErrorLine("Checked 120 files, 0 errors")).toBe(false);
    expect(isErrorLine("no failures")).toBe(false);
    expect(isErrorLine("3 tests failed")).toBe(true);
    expect(isErrorLine("Command exited with code 1")).toBe(false);
  });
});

describe("isTodoLine: lines that state something to do", () => {
  it("keeps statements with TODO / next / remaining / must", () => {
    expect(isTodoLine("Next: run the full suite.")).toBe(true);
    expect(isTodoLine("The skill must know when to use which pattern.")).toBe(true);
    expect(isTodoLine("TODO: drop the fallback")).toBe(true);
  });

  it("drops questions, lead-ins ending with a colon and offers", () => {
    expect(isTodoLine("What must be preserved?")).toBe(false);
    expect(isTodoLine("**Suggested next steps:**")).toBe(false);
    expect(isTodoLine("If you want, next I can update the skill with this rule.")).toBe(false);
    expect(isTodoLine("Would you like me to do that next.")).toBe(false);
  });
});

describe("extractFacts takes no noise for an error or a TODO", () => {
  it("lists the error line of a failed result and nothing for a failed run that printed no error", () => {
    const span = linked(
      msg("a1", assistant("", { calls: [call("c1", "bash", { command: "npm run check" }), call("c2", "bash", { command: "git push" })] })),
      msg("t1", { ...toolResult("c1", "> app@1.0.0 check\n> tsc\n\nsrc/a.ts(1,1): error TS1005: ';' expected."), isError: true }),
      msg("t2", { ...toolResult("c2", "(no output)"), isError: true }),
      msg("b1", bash("git fetch", "From https://example.com/r\n * branch main", { exitCode: 1 })),
      msg("a2", assistant("## Best next refinement plan\n- Next: rename the flag.\nWhat must stay?")),
    );
    const facts = extractFacts(span);
    expect(facts.filter((f) => f.kind === "error").map((f) => [f.text, f.entryId])).toEqual([["src/a.ts(1,1): error TS1005: ';' expected.", "t1"]]);
    expect(facts.filter((f) => f.kind === "todo").map((f) => f.text)).toEqual(["Next: rename the flag."]);
  });
});

describe.skipIf(!hasFixtures)("the fact check of a real pi session's compaction", () => {
  const file = path.join(FIXTURES_DIR, "formats/pi/badlogic-pi-mono-v1-compact-merged-line.jsonl");
  it("counts as errors only failed outputs' error lines", () => {
    const { entries } = loadSession(readFileSync(file, "utf8"));
    const byId = new Map(entries.map((e) => [e.id, e]));
    const compaction = entries.find((e) => e.type === "compaction");
    expect(compaction).toBeDefined();
    const p: SessionEntry[] = [];
    for (let e: SessionEntry | undefined = compaction; e; e = e.parentId ? byId.get(e.parentId) : undefined) p.unshift(e);
    const check = factCheckCompaction(p, compaction!.id)!;
    const errors = check.facts.filter((f) => f.kind === "error");
    // Independently: the failed tool results of the span, and the first line of each.
    const failed = p.filter((e) => e.type === "message" && e.message.role === "toolResult" && e.message.isError);
    const firstLines = failed.map((e) => {
      const m = (e as SessionEntry & { type: "message" }).message as { content: { type: string; text?: string }[] };
      return (m.content.map((b) => b.text ?? "").join("").split("\n").find((l) => l.trim()) ?? "").trim();
    });
    expect(firstLines).toContain("(no output)");
    expect(firstLines.some((l) => l.startsWith("> "))).toBe(true);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.length).toBeLessThan(failed.length);
    for (const f of errors) {
      expect(f.text).not.toBe("(no output)");
      expect(f.text).not.toMatch(/^(> |To https?:|From https?:|Running )/);
      expect(f.text).toMatch(/error|fail|no such|not found|denied|cannot|EN[A-Z]+|rejected/i);
    }
  });
});

if (!hasFixtures) console.warn(FIXTURES_SKIP_REASON);
