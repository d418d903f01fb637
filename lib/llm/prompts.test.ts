import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildPromptSet, clearPromptCache, loadPrompts, PROMPT_FILES } from "@/lib/llm/prompts";
import { renderTemplate } from "@/lib/session/prompt-template";

const PROMPTS_DIR = path.resolve(import.meta.dirname, "../../prompts");
const SUMMARY_SECTIONS = [
  "## Goal",
  "## Constraints & Preferences",
  "## Progress",
  "### Done",
  "### In Progress",
  "### Blocked",
  "## Key Decisions",
  "## Next Steps",
  "## Critical Context",
  "## Additional Notes",
];
const BRANCH_SECTIONS = SUMMARY_SECTIONS.slice(0, 8);
const ITEM_FORMATS = ["- [x]", "- [ ]", "- **Decision**:", "\n1. "];

const tempDirs: string[] = [];
function tempCopy(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "arbor-prompts-"));
  tempDirs.push(dir);
  for (const f of Object.values(PROMPT_FILES)) copyFileSync(path.join(PROMPTS_DIR, f), path.join(dir, f));
  return dir;
}
afterAll(() => {
  for (const d of tempDirs) rmSync(d, { recursive: true, force: true });
});

describe("prompt templates (session-engine.md §17)", () => {
  const p = loadPrompts(PROMPTS_DIR);

  it("the prompts folder holds exactly the nine templates", () => {
    expect(readdirSync(PROMPTS_DIR).sort()).toEqual(Object.values(PROMPT_FILES).sort());
  });

  it("loads every template, non-empty and already normalized", () => {
    for (const key of Object.keys(PROMPT_FILES) as (keyof typeof PROMPT_FILES)[]) {
      expect(p[key].length).toBeGreaterThan(20);
    }
    // Static templates are pre-rendered: rendering again changes nothing.
    expect(renderTemplate(p.compactionSummary)).toBe(p.compactionSummary);
    expect(p.summarizationSystem).toBe(p.summarizationSystem.trim());
  });

  it("§17.1 and §17.2 ask for every section heading and item format", () => {
    for (const text of [p.compactionSummary, p.compactionUpdateSummary]) {
      for (const h of SUMMARY_SECTIONS) expect(text).toMatch(new RegExp(`^${escapeRegExp(h)}$`, "m"));
      for (const f of ITEM_FORMATS) expect(text).toContain(f);
    }
    expect(p.compactionUpdateSummary).toContain("<previous-summary>");
  });

  it("§17.3 asks for the turn-prefix headings", () => {
    for (const h of ["## Original Request", "## Early Progress", "## Context for Suffix"]) {
      expect(p.compactionTurnPrefix).toMatch(new RegExp(`^${escapeRegExp(h)}$`, "m"));
    }
  });

  it("§17.4 asks for 2–3 first-person sentences", () => {
    expect(p.compactionShortSummary).toMatch(/two or three sentences/i);
    expect(p.compactionShortSummary).toMatch(/first person singular/i);
  });

  it("§17.7 asks for the branch sections only, with (none) for empty constraints", () => {
    for (const h of BRANCH_SECTIONS) expect(p.branchSummary).toMatch(new RegExp(`^${escapeRegExp(h)}$`, "m"));
    for (const f of ITEM_FORMATS) expect(p.branchSummary).toContain(f);
    expect(p.branchSummary).toContain("(none)");
    expect(p.branchSummary).not.toContain("## Critical Context");
    expect(p.branchSummary).not.toContain("## Additional Notes");
  });

  it("§17.8 the preamble is two lines, the second ending with a colon, with no trailing newline", () => {
    const raw = readFileSync(path.join(PROMPTS_DIR, PROMPT_FILES.branchSummaryPreamble), "utf8");
    expect(raw.endsWith("\n")).toBe(false);
    const lines = p.branchSummaryPreamble.split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[1]?.endsWith(":")).toBe(true);
  });

  it("§17.5 and §17.6 the wrappers stay raw and render the summary inside <summary> tags", () => {
    for (const wrapper of [p.compactionSummaryContext, p.branchSummaryContext]) {
      expect(wrapper).toContain("<summary>\n{{summary}}\n</summary>");
      const out = renderTemplate(wrapper, { summary: "## Goal\nShip it" });
      expect(out).toMatch(/\n\n<summary>\n## Goal\nShip it\n<\/summary>$/);
      expect(out.split("\n\n")[0]?.length).toBeGreaterThan(20);
    }
    // §17.6: one line before the blank line.
    expect(p.branchSummaryContext.split("\n\n")[0]).not.toContain("\n");
  });

  it("only the two wrappers contain {{summary}}", () => {
    const withPlaceholder = Object.entries(p)
      .filter(([, text]) => text.includes("{{"))
      .map(([key]) => key)
      .sort();
    expect(withPlaceholder).toEqual(["branchSummaryContext", "compactionSummaryContext"]);
  });
});

describe("loadPrompts (session-engine.md §17 Loading)", () => {
  it("caches per directory and can be cleared", () => {
    const dir = tempCopy();
    const first = loadPrompts(dir);
    writeFileSync(path.join(dir, PROMPT_FILES.summarizationSystem), "Changed system prompt text here.");
    expect(loadPrompts(dir)).toBe(first);
    clearPromptCache();
    expect(loadPrompts(dir).summarizationSystem).toBe("Changed system prompt text here.");
  });

  it("names every missing file", () => {
    const dir = tempCopy();
    rmSync(path.join(dir, PROMPT_FILES.branchSummary));
    rmSync(path.join(dir, PROMPT_FILES.compactionTurnPrefix));
    expect(() => loadPrompts(dir)).toThrow(/compaction-turn-prefix\.md: file is missing[\s\S]*branch-summary\.md: file is missing/);
  });

  it("rejects a wrapper without the summary block, naming the file", () => {
    const dir = tempCopy();
    writeFileSync(path.join(dir, PROMPT_FILES.branchSummaryContext), "Recap: {{summary}}");
    expect(() => loadPrompts(dir)).toThrow(/branch-summary-context\.md: must contain/);
  });

  it("rejects {{summary}} in a static template, naming the file", () => {
    const dir = tempCopy();
    writeFileSync(path.join(dir, PROMPT_FILES.compactionSummary), "Summarize {{summary}}");
    expect(() => loadPrompts(dir)).toThrow(/compaction-summary\.md: only the context wrappers/);
  });

  it("rejects any other placeholder in a static template", () => {
    expect(() =>
      buildPromptSet((file) => (file === PROMPT_FILES.branchSummary ? "Hello {{name}}" : readDefault(file))),
    ).toThrow(/branch-summary\.md: .*"name"/);
  });
});

function readDefault(file: string): string {
  return readFileSync(path.join(PROMPTS_DIR, file), "utf8");
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
